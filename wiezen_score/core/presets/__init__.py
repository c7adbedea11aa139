"""The built-in house-rules presets, shipped as TOML files beside this module."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from ..errors import WiezenError
from ..rules import PRESETS, HouseRules, parse_rules


def preset_text(name: str) -> str:
    if name not in PRESETS:
        raise WiezenError(f"no built-in house rules '{name}'; built in: {', '.join(PRESETS)}")
    return files(__package__).joinpath(f"{name}.toml").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def load_preset(name: str) -> HouseRules:
    return parse_rules(preset_text(name), f"preset '{name}'")
