from typing import Any, Callable, Dict, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._dupmj import (
    ACTIONS as ACTIONS,
    BOTS as BOTS,
    PLANES as PLANES,
    Env as Env,
    GameEnv as GameEnv,
    VecEnv as VecEnv,
    fan_table as fan_table,
    score as score,
    score_tiles as score_tiles,
    shanten as shanten,
    waits as waits,
)
from . import mahjonggb as mahjonggb

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Any]

def deal(seed: int) -> Dict[str, Any]: ...
def arena(
    policy: Policy,
    opponents: Union[None, str, Sequence[str]] = None,
    *,
    deals: int = 64,
    seed: int = 1,
    mode: str = "rotate",
    rules: str = "seeds",
    name: str = "policy",
    batch: int = 64,
) -> Dict[str, Any]: ...
