"""docs/add-an-example.md and docs/api.md: the package's limits, as the pages quote them.

Not a computation but the limits the package enforces: what a worked example's spec may hold
(:data:`selfattn_ref.examples.rules.LIMITS`, which the playground shares) and the largest result a
function of the package makes (:data:`selfattn_ref._validate.MAX_ENTRIES`). A page that states one
claims it (``at most 2,000{{description characters}} characters``), so that the page follows the code
when a limit changes. No table: the pages state them in prose.
"""

from __future__ import annotations

from selfattn_ref._validate import MAX_ENTRIES
from selfattn_ref.examples import MAX_SPEC_BYTES
from selfattn_ref.examples.rules import LIMITS

from ...audit.quantities import Quantity, source


@source("limits")
def _quantities():
    return [
        Quantity("limits tokens", LIMITS["words"]),
        Quantity("limits embedding numbers", LIMITS["dims"]),
        Quantity("limits token characters", LIMITS["tokenLength"]),
        Quantity("limits title characters", LIMITS["titleLength"]),
        Quantity("limits description characters", LIMITS["descriptionLength"]),
        Quantity("limits decimals", LIMITS["decimals"]),
        Quantity("limits largest number", LIMITS["magnitude"]),
        Quantity("limits largest seed", LIMITS["seed"]),
        Quantity("limits heads", LIMITS["heads"]),
        Quantity("limits entries of a result", MAX_ENTRIES),
        Quantity("limits spec file bytes", MAX_SPEC_BYTES),
    ]
