"""The rule sets a command line may name: the presets, and those `arena check-bot` plays
besides them (the other packs, seven-card hands, and the options that open phases no
preset does: a lone defender under maker-only alone, the dealer's trump rule, the
dealer's optional pickup, a turned joker bid on). Plain values, so that the command lines
can list them without loading the checker, and `arena match --rules` and `arena
check-bot --rules` offer the same list."""

from __future__ import annotations

from arena.core.rules import PRESETS, LoneDefender, RuleSet, WhoMayGoAlone

CHECK_EXTRA_RULES = {
    "32-card": RuleSet(name="32-card", deck=32),
    "33-card": RuleSet(
        name="33-card", deck=33, joker=True, stick_the_dealer=False,
        lone_defender=LoneDefender.ALLOWED, dealer_needs_trump_to_pick_up=True,
    ),
    "seven-card": RuleSet(name="seven-card", deck=32, hand_size=7),
    # The dealer's optional pickup and a turned joker bid on (seeds 000 and 004), with the
    # dealer's partner sent alone to bid on it (RULES.md section 7).
    "29-card": RuleSet(
        name="29-card", deck=29, joker=True, dealer_may_decline=True, turned_joker_bid=True,
        dealer_partner_must_go_alone=True,
    ),
    # Railroading (seeds 000 and 004): the partner's card passed face down.
    "railroading": RuleSet(
        name="railroading", who_may_go_alone=WhoMayGoAlone.ANY_PLAYER, railroading=True,
    ),
}


NAMED_RULES: dict[str, RuleSet] = {**PRESETS, **CHECK_EXTRA_RULES}
"""Every rule set a command line's --rules may name, presets first."""
