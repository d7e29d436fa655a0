"""Shared helpers: the repository's hand generator and reference conversions, loaded
from tools/oracle so that the tests and the comparison script use the same code."""
import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
