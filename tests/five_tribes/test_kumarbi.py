"""Kumarbi in bidding (docs/games/five-tribes.md §20.7): the kernel's legal bids
(``rounds.legal_bids``, bid codes) against the naive reference ``bids`` on hand-worked and
random bidding positions, the price table, what ``place_bid`` takes and marks, clean-up
clearing the powers used, and the bids ``advise`` lists."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from checks import ok
from five_tribes.test_naive_turns import position
from five_tribes_positions import next_bidding, random_midgame
from naive_five_tribes_djinns import Bid, Rules, bids
from oddsbot.analyser.five_tribes import face as ft
from oddsbot.analyser.five_tribes.encode import decode, encode
from oddsbot.analyser.five_tribes.labels import bid_label
from oddsbot.analyser.five_tribes.position import Player, Position
from oddsbot.analyser.five_tribes.validate import validate
from oddsbot.kernels import five_tribes as FT
from oddsbot.kernels.rng import stream

KUMARBI = 1 << [name for name, _, _ in FT.DJINNS].index("Kumarbi")
FAKIR = -1  # the Fakirs' place in card counts (``Position.resource_deck``)


def bidding(gold: int, fakirs: int, djinns: tuple[str, ...], track, players: int = 3,
            **fields) -> Position:
    """Player 0, holding ``djinns``, bids with their last marker; the other markers stand
    on ``track`` (9 spaces); ``fields``: other Position fields."""
    camels = FT.CAMELS[players]
    seats = (Player(camels=camels, gold=gold, fakirs=fakirs, djinns=djinns),
             *(Player(camels=camels) for _ in range(players - 1)))
    return validate(Position(board=position({}).board, players=seats, phase="bidding",
                             turn_track=track, to_move=0, **{"bid_track": (0,), **fields}))


def legal(state: np.ndarray) -> list[int]:
    out = np.empty(FT.MAX_BIDS, dtype=np.int64)
    return [int(b) for b in out[:FT.legal_bids(state, out)]]


def kernel_bids(pos: Position) -> dict[str, Bid]:
    """The kernel's legal bids of ``pos`` as the reference writes them: label -> (space,
    gold paid, Fakirs discarded)."""
    state = encode(pos)
    gold = int(state[FT.P_GOLD + pos.to_move])
    return {bid_label(b): Bid(int(FT.bid_space(b)), min(int(FT.bid_price(b)), gold),
                              int(FT.bid_fakirs(b))) for b in legal(state)}


def reference_bids(pos: Position) -> dict[str, Bid]:
    return bids(pos, Rules(used=frozenset(pos.players[pos.to_move].djinns_used)))


def check_bids(pos: Position) -> None:
    """Kernel = reference (labels, prices, Fakirs, order), and each bid placed takes
    exactly that from the bidder and leaves a valid position."""
    got, want = kernel_bids(pos), reference_bids(pos)
    assert list(got.items()) == list(want.items())
    state, me = encode(pos), pos.to_move
    for bid in legal(state):
        s = state.copy()
        FT.place_bid(s, bid)
        paid = want[bid_label(bid)]
        assert s[FT.P_GOLD + me] == state[FT.P_GOLD + me] - paid.gold
        assert s[FT.P_FAKIRS + me] == state[FT.P_FAKIRS + me] - paid.fakirs
        assert (s[FT.RES_DISCARD + FT.FAKIR_CARD]
                == state[FT.RES_DISCARD + FT.FAKIR_CARD] + paid.fakirs)
        marked = bool(paid.fakirs) and pos.two_player_djinn == "per_round"
        assert s[FT.P_USED + me] == state[FT.P_USED + me] | (KUMARBI if marked else 0)
        after = validate(decode(s))
        assert me in after.turn_track[FT.landing(bid):]


# ----------------------------------------------------------------------- hand-worked

def test_the_price_table_of_section_20_7():
    table = {18: (18, 12, 8, 5, 3, 1, 0), 12: (12, 8, 5, 3, 1, 0), 8: (8, 5, 3, 1, 0),
             5: (5, 3, 1, 0), 3: (3, 1, 0), 1: (1, 0)}
    for space, (cost, prices) in enumerate(table.items()):
        assert FT.BID_COSTS[space] == cost
        got = [int(FT.bid_price(space + FT.TRACK_SPACES * k)) for k in range(len(prices))]
        assert got == list(prices), cost
    assert FT.bid_price(FT.BID_ZERO) == 0


def test_hand_worked_bids():
    # 3 GC, 2 Fakirs, the 18 space taken: 12 is out of reach even for 2 Fakirs (5 GC)
    track = (1,) + (None,) * 5 + (2, None, None)
    pos = bidding(3, 2, ("Kumarbi",), track)
    assert list(kernel_bids(pos)) == [
        "bid 8 kumarbi 2", "bid 5 kumarbi 1", "bid 5 kumarbi 2", "bid 3", "bid 3 kumarbi 1",
        "bid 3 kumarbi 2", "bid 1", "bid 1 kumarbi 1", "bid 0"]
    check_bids(pos)
    for gold, fakirs in ((10, 2), (0, 0), (0, 3), (60, 6), (18, 18)):
        for djinns in ((), ("Kumarbi",)):
            check_bids(bidding(gold, fakirs, djinns, (None, 1, None, None, None, None, 2,
                                                      None, None)))


def test_the_broke_rule_only_when_nothing_is_affordable():
    zeros_full = (None,) * 6 + (1, 2, 3)
    pos = bidding(0, 1, ("Kumarbi",), zeros_full, 4)
    assert kernel_bids(pos) == {"bid 1 kumarbi 1": Bid(5, 0, 1)}
    assert kernel_bids(bidding(0, 0, ("Kumarbi",), zeros_full, 4)) == {"bid 1": Bid(5, 0, 0)}
    pos = bidding(2, 1, ("Kumarbi",), zeros_full, 4)
    assert list(kernel_bids(pos)) == ["bid 3 kumarbi 1", "bid 1", "bid 1 kumarbi 1"]
    for gold, fakirs in ((0, 1), (0, 0), (2, 1), (1, 0), (7, 3)):
        check_bids(bidding(gold, fakirs, ("Kumarbi",), zeros_full, 4))


def test_a_used_kumarbi_cannot_be_used_again_in_the_round():
    # 2 players, per_round: player 0's first marker bid 18 with Kumarbi; its second cannot
    two = bidding(20, 3, ("Kumarbi",), (None,) * 9, 2, bid_track=(0, 1, 0, 1),
                  two_player_djinn="per_round")
    state = encode(two)
    FT.place_bid(state, 0 + FT.TRACK_SPACES * 2)  # bid 18 kumarbi 2: 8 GC, 2 Fakirs
    assert state[FT.P_USED] == KUMARBI and state[FT.P_GOLD] == 12 and state[FT.P_FAKIRS] == 1
    FT.place_bid(state, FT.BID_ZERO)  # player 1
    second = validate(decode(state))
    assert second.to_move == 0 and second.players[0].djinns_used == ("Kumarbi",)
    assert not any("kumarbi" in label for label in kernel_bids(second))
    check_bids(second)
    # per_turn (the default): each bid may use it
    state = encode(replace(two, two_player_djinn="per_turn"))
    FT.place_bid(state, 0 + FT.TRACK_SPACES * 2)
    FT.place_bid(state, FT.BID_ZERO)
    assert state[FT.P_USED] == 0 and "bid 12 kumarbi 1" in kernel_bids(decode(state))


def test_clean_up_clears_every_power_used():
    state = encode(bidding(20, 3, ("Kumarbi",), (None,) * 9, bid_track=(0, 1, 2)))
    state[FT.P_USED:FT.P_USED + 4] = (KUMARBI, 5, 7, 1)
    while state[FT.PHASE] == FT.BIDDING:
        FT.place_bid(state, legal(state)[-1])
    while state[FT.TO_MOVE] >= 0:
        FT.marker_to_bid_track(state)
    FT.cleanup(state, stream(np.uint64(3), 2))
    assert not state[FT.P_USED:FT.P_USED + 4].any()


# ----------------------------------------------------------------------- random positions

def with_kumarbi(pos: Position, fakirs: int, used: bool) -> Position:
    """``pos`` with Kumarbi held by the bidder and up to ``fakirs`` more Fakirs from the
    deck; ``used`` (2 players): marked used this round under ``per_round``."""
    me = pos.to_move
    players = [replace(p, djinns=tuple(d for d in p.djinns if d != "Kumarbi"))
               for p in pos.players]
    held = tuple(sorted((*players[me].djinns, "Kumarbi"), key=[n for n, _, _ in FT.DJINNS].index))
    more = min(fakirs, pos.resource_deck[FAKIR])
    players[me] = replace(players[me], djinns=held, fakirs=players[me].fakirs + more)
    pos = replace(pos, djinns=tuple(d for d in pos.djinns if d != "Kumarbi"),
                  djinn_discard=tuple(d for d in pos.djinn_discard if d != "Kumarbi"))
    if used and pos.n_players == 2:
        players[me] = replace(players[me], djinns_used=("Kumarbi",))
        pos = replace(pos, two_player_djinn="per_round")
    elif pos.n_players == 2:
        pos = replace(pos, two_player_djinn="per_round" if fakirs % 2 else "per_turn")
    return replace(pos, players=tuple(players))


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), kumarbi=st.booleans(),
       fakirs=st.integers(0, 8), used=st.booleans())
def test_kernel_bids_equal_the_reference_on_random_positions(seed, players, kumarbi, fakirs,
                                                              used):
    pos = random_midgame(seed, players)
    if pos.phase != "bidding":
        pos = next_bidding(pos)
    if kumarbi:
        pos = with_kumarbi(pos, fakirs, used)
    check_bids(validate(pos))


# ----------------------------------------------------------------------- advise

def test_advise_lists_the_kumarbi_bids(oddsbot_cli):
    pos = bidding(3, 2, ("Kumarbi",), (1,) + (None,) * 5 + (2, None, None))
    data = ok(oddsbot_cli("advise", pos.to_notation(), "-f", "json")).json()
    rows = {row["action"]: row for row in data["actions"]}
    assert set(rows) == set(kernel_bids(pos))
    assert sorted(ft.legal_actions(pos)) == sorted(rows)
    for label, bid in kernel_bids(pos).items():
        row = rows[label]
        assert (row["cost"], row["fakirs"]) == (bid.gold, bid.fakirs)
        assert row["ev"] == row["turn_value"] - row["cost"]  # no Al-Amin: Fakirs worth 0
    # the turn is valued with the Fakirs left: the same place, fewer Fakirs, never more
    assert rows["bid 3 kumarbi 2"]["turn_value"] <= rows["bid 3"]["turn_value"]


def test_kumarbi_bids_with_al_amin_cost_the_fakirs_end_worth(oddsbot_cli):
    # Al-Amin makes each pair of Fakirs one wild good: discarding one of 2 loses the pair
    pos = bidding(3, 2, ("Al-Amin", "Kumarbi"), (1,) + (None,) * 5 + (2, None, None))
    fewer = replace(pos, players=(replace(pos.players[0], fakirs=1),) + pos.players[1:])
    goods = [ok(oddsbot_cli("odds", p.to_notation(), "-f", "json")).json()[
        "standings"][0]["goods"] for p in (pos, fewer)]
    assert goods[0] > goods[1]
    data = ok(oddsbot_cli("advise", pos.to_notation(), "-f", "json")).json()
    rows = {row["action"]: row for row in data["actions"]}
    one = rows["bid 3 kumarbi 1"]
    assert one["ev"] == one["turn_value"] - one["cost"] - (goods[0] - goods[1])
    assert rows["bid 3"]["ev"] == rows["bid 3"]["turn_value"] - 3


# ----------------------------------------------------------------------- policies

def test_the_policies_bid_with_kumarbi():
    scratch = np.empty(FT.MAX_BIDS, dtype=np.int64)
    rng = stream(np.uint64(11), 1)

    def greedy(pos: Position) -> str:
        return bid_label(FT.choose_bid(encode(pos), FT.P_GREEDY, rng, scratch))

    zeros_full = (None,) * 6 + (1, 2, 3)
    track = (1,) + (None,) * 5 + (2, None, None)
    assert greedy(bidding(3, 2, ("Kumarbi",), track)) == "bid 0"  # a free zero: no Fakir
    # the lowest price, then the fewest Fakirs: 0 GC for 1 Fakir on the 1 space
    assert greedy(bidding(9, 3, ("Kumarbi",), zeros_full, 4)) == "bid 1 kumarbi 1"
    assert greedy(bidding(9, 0, ("Kumarbi",), zeros_full, 4)) == "bid 1"
    # random: every legal bid, Kumarbi's included, can be drawn
    pos = bidding(3, 2, ("Kumarbi",), track)
    drawn = {bid_label(FT.choose_bid(encode(pos), FT.P_RANDOM, rng, scratch))
             for _ in range(400)}
    assert drawn == set(kernel_bids(pos))
