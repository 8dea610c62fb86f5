"""A first, buggy attempt the code-fix example starts from (fails check_solution.py)."""

import re


def parse_duration(text: str) -> int:
    total = 0
    for number, unit in re.findall(r"(\d+)([hms])", text):
        total += int(number) * {"h": 3600, "m": 60, "s": 1}[unit]
    return total
