"""The four years of the cycle (CYC-1), each an ordered list of steps."""

from ..flow import YEAR_STEPS
from . import goods, auction, play, sail  # cycle order, not sorted: the decision types register in it

YEAR_STEPS[0] = goods.STEPS
YEAR_STEPS[1] = auction.STEPS
YEAR_STEPS[2] = play.STEPS
YEAR_STEPS[3] = sail.STEPS
