#!/usr/bin/env python3
"""Unit test of bench/perf/take_turns.py's schedule and of how it finds each job's turns in its batches."""
import itertools
import os
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "perf"))
import take_turns  # noqa: E402

TURN = 0.25
PER_BATCH = 1000  # a 1 us call: a batch lasts 1 ms


def batches(us, n):
    return [us] * n


def pause(turns):  # the batch that spans a stop of this many turns
    return (turns * TURN + 0.001) / PER_BATCH * 1e6


class Schedule(unittest.TestCase):
    def test_rounds(self):
        order = ["gpunet-bench", "bare", "bare-again", "bare-same"]
        slots = list(itertools.islice(take_turns.schedule(order, 7), 1 + 4 * 50))
        self.assertEqual(slots[0], "gpunet-bench")
        self.assertTrue(all(a != b for a, b in zip(slots, slots[1:])), "a job never takes two turns running")
        for r in range(50):
            self.assertEqual(sorted(slots[1 + 4 * r:5 + 4 * r]), sorted(order), "every job once a round")
        self.assertNotEqual(slots[1:5], slots[5:9], "the order changes between rounds")


class TurnMedians(unittest.TestCase):
    def test_pauses_mark_the_turns(self):
        slots = [1, 4, 6]
        samples = batches(1.0, 5) + [pause(2)] + batches(2.0, 5) + [pause(1)] + batches(3.0, 5) + [pause(3)] + batches(9.0, 4)
        self.assertEqual(take_turns.turn_medians(samples, PER_BATCH, slots, TURN), {1: 1.0, 4: 2.0, 6: 3.0})

    def test_a_pause_of_the_machine_splits_a_turn_only(self):
        slots = [1, 4, 6]
        hiccup = 0.2 / PER_BATCH * 1e6  # 0.2 s: over half a turn, but no stop the schedule made
        samples = batches(1.0, 5) + [hiccup] + batches(1.5, 5) + [pause(2)] + batches(2.0, 5) + [pause(1)] + batches(3.0, 5)
        self.assertEqual(take_turns.turn_medians(samples, PER_BATCH, slots, TURN), {1: 1.0, 4: 2.0, 6: 3.0})

    def test_batches_before_the_first_turn_are_left_out(self):
        slots = [2, 5]
        waited = 3.0
        samples = batches(7.0, 4) + [(waited + 0.001) / PER_BATCH * 1e6] + batches(1.0, 5) + [pause(2)] + batches(2.0, 5)
        self.assertEqual(take_turns.turn_medians(samples, PER_BATCH, slots, TURN, waited), {2: 1.0, 5: 2.0})

    def test_short_turns_are_left_out(self):
        samples = batches(1.0, 2) + [pause(1)] + batches(2.0, 3)
        self.assertEqual(take_turns.turn_medians(samples, PER_BATCH, [0, 2], TURN), {2: 2.0})


class Ratios(unittest.TestCase):
    def test_against_the_nearest_reference_turns(self):
        timeline = {0: ("gpunet-bench", 1.1), 1: ("bare", 1.0), 2: ("gpunet-bench", 2.2), 3: ("bare", 3.0), 4: ("gpunet-bench", 3.3)}
        self.assertEqual([round(r, 6) for r in take_turns.ratios_to(timeline, "gpunet-bench", "bare")], [round(2.2 / 2.0, 6)])


if __name__ == "__main__":
    unittest.main()
