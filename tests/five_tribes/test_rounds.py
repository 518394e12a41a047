"""Five Tribes rounds: bidding for turn order (docs/games/five-tribes.md §5, the seed's example,
§14.7), markers moving to the bid order track (§6.1), clean-up (§4.3), the end check (§13) and
set-up (§3) by hand and on random positions."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oddsbot.errors import OddsbotError
from oddsbot.analyser.five_tribes.validate import validate
from oddsbot.analyser.five_tribes.encode import decode, encode
from oddsbot.analyser.five_tribes.names import CARD_COUNTS
from oddsbot.analyser.five_tribes.setup import VARIANTS, new_position
from oddsbot.kernels import five_tribes as FT
from oddsbot.kernels.rng import stream

from five_tribes_positions import next_bidding, random_midgame
from naive_five_tribes import board as meeple_board

COST = {int(c): i for i, c in enumerate(FT.BID_COSTS[:FT.BID_ZERO])}  # cost -> space
CARD_KINDS = FT.N_CARD_KINDS


def bidding(order: list[int], gold: list[int]) -> np.ndarray:
    """A bidding state: these markers on the bid order track, this gold per seat."""
    state = FT.empty_state()
    players = len(gold)
    state[FT.N_PLAYERS] = players
    state[FT.P_GOLD:FT.P_GOLD + players] = gold
    state[FT.BID_ORDER:FT.BID_ORDER + len(order)] = order
    state[FT.TO_MOVE] = order[0]
    return state


def legal(state: np.ndarray) -> list[int]:
    out = np.empty(FT.MAX_BIDS, dtype=np.int64)
    return [int(s) for s in out[:FT.legal_bids(state, out)]]


def track(state: np.ndarray) -> list[int]:
    return [int(p) for p in state[FT.TURN_TRACK:FT.TURN_TRACK + FT.TRACK_SPACES]]


def bid_order(state: np.ndarray) -> list[int]:
    return [int(p) for p in state[FT.BID_ORDER:FT.BID_ORDER + FT.MAX_MARKERS]]


def gold(state: np.ndarray) -> list[int]:
    return [int(g) for g in state[FT.P_GOLD:FT.P_GOLD + state[FT.N_PLAYERS]]]


# --------------------------------------------------------------------------- bidding


def test_the_seeds_example_plays_a_b_d_c():
    state = bidding([0, 1, 2, 3], [50, 50, 50, 50])  # A B C D = seats 0 1 2 3
    assert legal(state) == [0, 1, 2, 3, 4, 5, FT.BID_ZERO]
    for seat, space in ((0, COST[3]), (1, COST[1]), (2, FT.BID_ZERO)):
        FT.place_bid(state, space)
        assert state[FT.PHASE] == FT.BIDDING and state[FT.TO_MOVE] == seat + 1
    FT.place_bid(state, FT.BID_ZERO)
    assert track(state) == [-1, -1, -1, -1, 0, 1, 3, 2, -1]  # play order A, B, D, C
    assert gold(state) == [47, 49, 50, 50]
    assert bid_order(state) == [-1, -1, -1, -1]
    assert state[FT.PHASE] == FT.TURNS and state[FT.TO_MOVE] == 0


def test_markers_before_counts_those_that_play_earlier():
    # the seed's example: A bid 3, B bid 1, C bid 0; D (next) plays before everyone on a
    # dearer space (18, 12, 8, 5) and after A and B on a zero
    state = bidding([0, 1, 2, 3], [50, 50, 50, 50])
    for space in (COST[3], COST[1], FT.BID_ZERO):
        FT.place_bid(state, space)
    assert [FT.markers_before(state, s) for s in (0, 1, 2, 3, FT.BID_ZERO)] == [0, 0, 0, 0, 2]
    for space in legal(state):  # the count is where place_bid puts the marker
        s = state.copy()
        FT.place_bid(s, space)
        at = track(s).index(3)
        assert FT.markers_before(state, space) == sum(p >= 0 for p in track(s)[:at])


def test_a_priced_space_is_taken_once_and_the_track_moves_up():
    state = bidding([2, 0, 1], [50, 50, 50])
    FT.place_bid(state, COST[18])
    assert bid_order(state) == [0, 1, -1, -1] and state[FT.TO_MOVE] == 0
    assert legal(state) == [1, 2, 3, 4, 5, FT.BID_ZERO]
    FT.place_bid(state, COST[8])
    assert legal(state) == [1, 3, 4, 5, FT.BID_ZERO]
    FT.place_bid(state, COST[12])
    assert track(state) == [2, 1, 0, -1, -1, -1, -1, -1, -1]
    assert gold(state) == [42, 38, 32]
    assert state[FT.PHASE] == FT.TURNS and state[FT.TO_MOVE] == 2


def test_at_most_three_markers_bid_zero():
    state = bidding([0, 1, 1, 0], [50, 50])  # two players, two markers each
    for _ in range(3):
        assert legal(state)[-1] == FT.BID_ZERO
        FT.place_bid(state, FT.BID_ZERO)
    assert track(state) == [-1] * 6 + [1, 1, 0]  # the latest zero bidder plays first
    assert legal(state) == [0, 1, 2, 3, 4, 5]
    FT.place_bid(state, COST[5])
    assert track(state) == [-1, -1, -1, 0, -1, -1, 1, 1, 0]
    assert gold(state) == [45, 50]
    assert state[FT.PHASE] == FT.TURNS and state[FT.TO_MOVE] == 0


def test_spaces_the_owner_cannot_pay_are_not_offered():
    state = bidding([1, 0, 2], [50, 7, 50])
    assert legal(state) == [COST[5], COST[3], COST[1], FT.BID_ZERO]
    state[FT.P_GOLD + 1] = 12
    assert legal(state) == [COST[12], COST[8], COST[5], COST[3], COST[1], FT.BID_ZERO]


def test_a_broke_bidder_takes_the_cheapest_free_space_and_pays_what_he_has():
    state = bidding([0, 1, 0, 1], [30, 0])
    for _ in range(3):
        FT.place_bid(state, FT.BID_ZERO)
    assert legal(state) == [COST[1]]  # all zeros taken and not even 1 gold (§14.7)
    FT.place_bid(state, COST[1])
    assert gold(state) == [30, 0]
    assert track(state) == [-1, -1, -1, -1, -1, 1, 0, 1, 0]
    assert state[FT.PHASE] == FT.TURNS and state[FT.TO_MOVE] == 1
    state = bidding([0, 1, 2], [5, 50, 50])
    FT.place_bid(state, COST[18])  # the price is never more than the gold
    assert gold(state) == [0, 50, 50]


# --------------------------------------------------------------------------- turns


def test_markers_move_to_the_bid_order_track_in_play_order():
    state = bidding([0, 1, 2, 3], [50, 50, 50, 50])
    for space in (COST[3], COST[1], FT.BID_ZERO, FT.BID_ZERO):
        FT.place_bid(state, space)
    assert FT.marker_to_bid_track(state) == 0
    assert bid_order(state) == [0, -1, -1, -1] and state[FT.TO_MOVE] == 1
    assert FT.marker_to_bid_track(state) == 1
    assert track(state) == [-1] * 6 + [3, 2, -1] and state[FT.TO_MOVE] == 3
    assert FT.marker_to_bid_track(state) == 3
    assert track(state) == [-1] * 6 + [2, -1, -1]  # the zero spaces fill from the first
    assert state[FT.TO_MOVE] == 2
    assert FT.marker_to_bid_track(state) == 2
    assert track(state) == [-1] * 9
    assert bid_order(state) == [0, 1, 3, 2]  # next round bids in this round's play order
    assert state[FT.TO_MOVE] == -1 and state[FT.PHASE] == FT.TURNS


def test_three_zero_markers_leave_in_turn():
    state = bidding([0, 1, 1, 0], [50, 50])
    for space in (FT.BID_ZERO, FT.BID_ZERO, FT.BID_ZERO, COST[18]):
        FT.place_bid(state, space)
    assert [FT.marker_to_bid_track(state) for _ in range(2)] == [0, 1]
    assert track(state) == [-1] * 6 + [1, 0, -1] and state[FT.TO_MOVE] == 1
    assert [FT.marker_to_bid_track(state) for _ in range(2)] == [1, 0]
    assert bid_order(state) == [0, 1, 1, 0] and state[FT.TO_MOVE] == -1


# --------------------------------------------------------------------------- clean-up


def counts(state: np.ndarray, start: int) -> list[int]:
    return [int(k) for k in state[start:start + CARD_KINDS]]


def row(state: np.ndarray) -> list[int]:
    return [int(c) for c in state[FT.ROW:FT.ROW + FT.RESOURCE_ROW]]


def djinn_row(state: np.ndarray) -> list[int]:
    return [int(d) for d in state[FT.DJINN_ROW:FT.DJINN_ROW + FT.VISIBLE_DJINNS]]


def round_end(row_cards: list[int], deck: dict[int, int], discard: dict[int, int],
              djinns: list[int], djinn_deck: list[int], djinn_discard: list[int]) -> np.ndarray:
    """A state at clean-up: markers 2, 0, 1 on the bid order track, the rows short."""
    state = bidding([2, 0, 1], [50, 50, 50])
    state[FT.PHASE] = FT.TURNS
    state[FT.TO_MOVE] = -1
    state[FT.ROW:FT.ROW + len(row_cards)] = row_cards
    for start, cards in ((FT.RES_DECK, deck), (FT.RES_DISCARD, discard)):
        for kind, k in cards.items():
            state[start + kind] = k
    state[FT.DJINN_ROW:FT.DJINN_ROW + len(djinns)] = djinns
    state[FT.DJINN_DECK] = sum(1 << d for d in djinn_deck)
    state[FT.DJINN_DISCARD] = sum(1 << d for d in djinn_discard)
    return state


@pytest.mark.parametrize("seed", range(5))
def test_cleanup_refills_the_rows_reshuffling_the_discards(seed):
    fakir = FT.FAKIR_CARD
    state = round_end([0, fakir, 3, 3], {5: 2, 8: 1}, {fakir: 4}, [5], [2], [0, 20])
    FT.cleanup(state, stream(seed, 0))
    cards = row(state)
    assert cards[:4] == [0, fakir, 3, 3]
    assert sorted(cards[4:7]) == [5, 5, 8]  # the deck first, in random order
    assert cards[7:] == [fakir, fakir]  # then the reshuffled discard pile
    assert counts(state, FT.RES_DECK) == [0] * 9 + [2]
    assert counts(state, FT.RES_DISCARD) == [0] * 10
    shown = djinn_row(state)
    assert shown in ([0, 2, 5], [2, 5, 20])  # Djinn 2 from the deck, then one discard
    assert state[FT.DJINN_DECK] == 1 << (20 if 0 in shown else 0)
    assert state[FT.DJINN_DISCARD] == 0
    assert state[FT.PHASE] == FT.BIDDING and state[FT.TO_MOVE] == 2


def test_cleanup_leaves_a_row_short_when_deck_and_discards_are_empty():
    state = round_end([7, 7], {1: 1}, {4: 2}, [], [], [13])
    FT.cleanup(state, stream(3, 0))
    assert row(state)[:2] == [7, 7] and sorted(row(state)[2:5]) == [1, 4, 4]
    assert row(state)[5:] == [-1] * 4
    assert counts(state, FT.RES_DECK) == [0] * 10 == counts(state, FT.RES_DISCARD)
    assert djinn_row(state) == [13, -1, -1]
    assert state[FT.DJINN_DECK] == 0 == state[FT.DJINN_DISCARD]
    FT.cleanup(state, stream(4, 0))  # nothing left to draw: nothing changes
    assert row(state)[5:] == [-1] * 4 and djinn_row(state) == [13, -1, -1]


def test_cleanup_draws_every_card_of_the_deck():
    seen = set()
    for seed in range(200):
        state = round_end([], {k: 1 for k in range(CARD_KINDS)}, {}, [], [], [])
        FT.cleanup(state, stream(seed, 0))
        seen.add(row(state)[0])
        assert sorted(row(state) + [k for k in range(10) if state[FT.RES_DECK + k]]) == \
            list(range(10))
    assert seen == set(range(CARD_KINDS))


def box_cards(state: np.ndarray) -> list[int]:
    """Cards per kind over the row, deck, discard pile and hands."""
    out = np.array(counts(state, FT.RES_DECK)) + np.array(counts(state, FT.RES_DISCARD))
    for card in row(state):
        if card >= 0:
            out[card] += 1
    for p in range(FT.MAX_PLAYERS):
        out[:FT.N_GOODS] += state[FT.P_GOODS + p * FT.N_GOODS:FT.P_GOODS + (p + 1) * FT.N_GOODS]
        out[FT.FAKIR_CARD] += state[FT.P_FAKIRS + p]
    return [int(k) for k in out]


def djinn_count(state: np.ndarray) -> int:
    mask = int(state[FT.DJINN_DECK] | state[FT.DJINN_DISCARD])
    for p in range(FT.MAX_PLAYERS):
        mask |= int(state[FT.P_DJINNS + p])
    for d in djinn_row(state):
        if d >= 0:
            assert not mask >> d & 1
            mask |= 1 << d
    return bin(mask).count("1")


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_a_whole_round_end_keeps_the_position_valid_and_every_card(seed, players):
    state = encode(random_midgame(seed, players))
    while state[FT.PHASE] == FT.BIDDING:
        FT.place_bid(state, legal(state)[0])
    while state[FT.TO_MOVE] >= 0:
        FT.marker_to_bid_track(state)
    before = decode(state)
    FT.cleanup(state, stream(seed, 1))
    after = validate(decode(state))
    assert box_cards(state) == list(CARD_COUNTS)
    assert djinn_count(state) == len(FT.DJINNS)
    assert len(after.resources) == min(9, len(before.resources) + sum(before.resource_deck)
                                       + len(before.resource_discard))
    assert after.resources[:len(before.resources)] == before.resources
    assert len(after.djinns) == min(3, len(before.djinns) + len(before.djinn_deck)
                                    + len(before.djinn_discard))
    assert list(after.djinns) == sorted(after.djinns, key=[d for d, _, _ in FT.DJINNS].index)
    assert after.phase == "bidding" and after.to_move == after.bid_track[0]
    assert len(after.bid_track) == players * FT.MARKERS[players]


# --------------------------------------------------------------------------- the end check


def end_state(stacks: dict[str, str], end_rule: int = FT.LIVE) -> np.ndarray:
    """3 players with 8 camels each and these meeples."""
    state = FT.empty_state()
    FT.meeples(state)[:] = meeple_board(stacks)
    state[FT.N_PLAYERS] = 3
    state[FT.P_CAMELS:FT.P_CAMELS + 3] = 8
    state[FT.END_RULE] = end_rule
    return state


def test_the_game_ends_when_a_player_has_placed_every_camel():
    state = end_state({"r0c0": "Y", "r0c1": "Y"})
    assert not FT.game_over(state)  # seat 3 (no camels) does not play with 3 players
    state[FT.P_CAMELS + 1] = 0
    assert FT.game_over(state)


def test_the_game_ends_when_no_sowing_is_legal():
    lonely = {"r0c0": "Y", "r0c1": "W", "r1c0": "B", "r2c2": "G", "r4c5": "R"}
    assert FT.game_over(end_state(lonely))
    assert FT.game_over(end_state(lonely, FT.PREMOVE))
    assert FT.game_over(end_state({}))
    assert not FT.game_over(end_state({**lonely, "r0c2": "W"}))  # r0c1 <-> r0c2
    assert not FT.game_over(end_state({"r0c0": "YW", "r1c1": "W"}))  # r0c0 -> r0c1 -> r1c1


# --------------------------------------------------------------------------- set-up


@settings(max_examples=150)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 4))
def test_new_positions_are_dealt_as_the_rules_say(seed, players):
    pos = validate(new_position(players, seed))
    assert pos.n_players == players and pos.phase == "bidding"
    assert all(len(cell.meeples) == 3 for _, _, cell in pos.cells())
    assert pos.bag == (0, 0, 0, 0, 0)
    assert len(pos.resources) == 9 and sum(pos.resource_deck) == 45
    assert len(pos.djinns) == 3 and len(pos.djinn_deck) == 19
    assert pos.resource_discard == () and pos.djinn_discard == ()
    assert sorted(pos.bid_track) == sorted(list(range(players)) * FT.MARKERS[players])
    assert pos.to_move == pos.bid_track[0] and pos.turn_track == (None,) * 9
    assert {(p.gold, p.camels) for p in pos.players} == {(50, FT.CAMELS[players])}
    assert sorted(cell.vp for _, _, cell in pos.cells() if cell.tile == "sacred-place") == \
        [6, 6, 6, 6, 10, 12, 15]
    assert pos.end_rule == "live" and not pos.assassin_optional


def test_the_same_seed_deals_the_same_game():
    assert new_position(3, 11) == new_position(3, 11)
    assert new_position(3, 11) != new_position(3, 12)
    boards = {new_position(4, seed).to_notation() for seed in range(30)}
    assert len(boards) == 30
    assert new_position(2, 5, "five-tribes-premove").end_rule == "premove"
    assert new_position(2, 5, "five-tribes-premove").board == new_position(2, 5).board
    assert set(VARIANTS) == {"five-tribes", "five-tribes-premove"}


def test_new_position_refuses_player_counts_and_variants_it_does_not_know():
    for players in (1, 5):
        with pytest.raises(OddsbotError, match=f"^players: five-tribes is for 2-4 players, "
                                               f"got {players}$"):
            new_position(players)
    with pytest.raises(OddsbotError, match="five-tribes-deluxe"):
        new_position(3, variant_id="five-tribes-deluxe")


@settings(max_examples=200)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       choices=st.randoms(use_true_random=False))
def test_random_bidding_keeps_the_position_valid(seed, players, choices: random.Random):
    pos = random_midgame(seed, players)
    if pos.phase != "bidding":
        pos = next_bidding(pos)
    state = encode(validate(pos))
    bids = len(pos.bid_track)
    for i in range(bids):
        spaces = legal(state)  # bid codes (Kumarbi's included), dearest space first
        assert spaces and [FT.bid_space(s) for s in spaces] == sorted(map(FT.bid_space, spaces))
        owner = int(state[FT.BID_ORDER])
        space = choices.choice(spaces)
        paid = min(int(FT.bid_price(space)), int(state[FT.P_GOLD + owner]))
        before = int(state[FT.P_GOLD + owner])
        fakirs = int(state[FT.P_FAKIRS + owner])
        FT.place_bid(state, space)
        assert state[FT.P_GOLD + owner] == before - paid >= 0
        assert state[FT.P_FAKIRS + owner] == fakirs - FT.bid_fakirs(space) >= 0
        after = validate(decode(state))
        assert len(after.bid_track) == bids - i - 1
        assert (after.phase == "turns") == (i == bids - 1)
    assert after.to_move == next(p for p in after.turn_track if p is not None)
    assert sum(p is not None for p in after.turn_track[FT.BID_ZERO:]) <= 3
