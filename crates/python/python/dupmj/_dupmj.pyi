"""Type stubs of the extension module (see dupmj/__init__.py for the overview)."""
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

ACTIONS: int
PLANES: int
BOTS: List[str]

Tiles = Union[str, Sequence[str]]
MeldTuple = Union[Tuple[str, str, int], Tuple[str, str]]
Scoring = Dict[str, Any]

def score(hand: str, flags: str = "", fans: str = "seeds") -> Scoring: ...
def score_tiles(
    hand: Tiles,
    win_tile: str,
    melds: Optional[Sequence[MeldTuple]] = None,
    *,
    self_drawn: bool = False,
    fourth_tile: bool = False,
    kong: bool = False,
    last_tile: bool = False,
    seat_wind: str = "E",
    prevalent_wind: str = "E",
    flowers: int = 0,
    fans: str = "seeds",
) -> Scoring: ...
def shanten(tiles: Tiles, melds: int = 0) -> Dict[str, int]: ...
def waits(
    tiles: Tiles,
    melds: Optional[Sequence[MeldTuple]] = None,
    *,
    seat_wind: str = "E",
    prevalent_wind: str = "E",
    flowers: int = 0,
    fans: str = "seeds",
) -> Dict[str, Any]: ...
def fan_table(fans: str = "seeds") -> List[Tuple[int, str, str, int]]: ...
def deal_json(seed: int) -> str: ...

Pack = Tuple[str, str, int]
def MahjongFanCalculator(
    pack: Tuple[Pack, ...],
    hand: Tuple[str, ...],
    winTile: str,
    flowerCount: int,
    isSelfDrawn: bool,
    is4thTile: bool,
    isAboutKong: bool,
    isWallLast: bool,
    seatWind: int,
    prevalentWind: int,
    verbose: bool = False,
) -> Tuple[Tuple[Any, ...], ...]: ...
def MahjongShanten(pack: Tuple[Pack, ...], hand: Tuple[str, ...]) -> int: ...
def ThirteenOrphansShanten(hand: Tuple[str, ...]) -> Tuple[int, Tuple[str, ...]]: ...
def SevenPairsShanten(hand: Tuple[str, ...]) -> Tuple[int, Tuple[str, ...]]: ...
def HonorsAndKnittedTilesShanten(hand: Tuple[str, ...]) -> Tuple[int, Tuple[str, ...]]: ...
def KnittedStraightShanten(hand: Tuple[str, ...]) -> Tuple[int, Tuple[str, ...]]: ...
def RegularShanten(hand: Tuple[str, ...]) -> Tuple[int, Tuple[str, ...]]: ...

Bots = Union[None, str, Sequence[Optional[str]]]
Actions = Union[Sequence[Optional[int]], Mapping[int, int]]

class Env:
    def __init__(
        self,
        rules: str = "seeds",
        bots: Bots = None,
        field: Optional[str] = None,
        reward: str = "points",
        seed: int = 0,
    ) -> None: ...
    def reset(self, seed: Optional[int] = None, deal: Optional[str] = None) -> List[int]: ...
    def to_act(self) -> List[int]: ...
    def observe(self, seat: int) -> npt.NDArray[np.float32]: ...
    def legal_mask(self, seat: int) -> npt.NDArray[np.bool_]: ...
    def legal_actions(self, seat: int) -> List[int]: ...
    def step(self, actions: Actions) -> Tuple[npt.NDArray[np.float32], bool]: ...
    @property
    def done(self) -> bool: ...
    def points(self) -> List[int]: ...
    def imp(self) -> Optional[List[int]]: ...
    def field_points(self) -> Optional[List[List[int]]]: ...
    def log(self) -> str: ...
    @staticmethod
    def describe(index: int) -> str: ...

class VecEnv:
    def __init__(
        self,
        n: int,
        rules: str = "seeds",
        bots: Bots = None,
        field: Optional[str] = None,
        reward: str = "points",
        seed: int = 0,
    ) -> None: ...
    def __len__(self) -> int: ...
    def to_act(self) -> npt.NDArray[np.bool_]: ...
    def observe(
        self, out: Optional[npt.NDArray[np.float32]] = None, all_seats: bool = False
    ) -> npt.NDArray[np.float32]: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]: ...
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]: ...

def arena_run(
    policy: Any,
    opponents: Union[None, str, Sequence[str]] = None,
    *,
    deals: int = 64,
    seed: int = 1,
    mode: str = "rotate",
    rules: str = "seeds",
    name: str = "policy",
    batch: int = 64,
) -> Tuple[str, str]: ...
