#!/usr/bin/env python3
"""Writes Samples/lm/garden.txt: a small corpus of simple English sentences for the language-model
quick start (the project's own text, generated from the templates below, seeded).
Run: python3 scripts/samples/lm-corpus.py"""
import os
import random

rng = random.Random(6)
ANIMALS = ["the cat", "the dog", "a small bird", "the old horse", "a brown rabbit", "the black cat", "a young fox"]
PEOPLE = ["the gardener", "my sister", "the old man", "a tall woman", "the young boy", "our neighbour"]
PLACES = ["in the garden", "by the river", "under the apple tree", "near the old wall", "on the green hill",
          "behind the house", "in the quiet field"]
TIMES = ["in the morning", "at noon", "in the evening", "after the rain", "when the sun is warm", "at night"]
ANIMAL_ACTS = ["sleeps", "runs", "waits", "plays", "sits", "eats", "hides"]
PEOPLE_ACTS = ["plants seeds", "reads a book", "waters the roses", "walks slowly", "picks apples", "sings a song",
               "paints the gate"]
WEATHER = ["the sky is blue", "the wind is cold", "the rain is soft", "the air is warm", "the clouds are grey",
           "the sun is bright"]
FEELINGS = ["happy", "tired", "quiet", "hungry", "calm", "curious"]


def sentence():
    kind = rng.randrange(6)
    if kind == 0:
        return f"{rng.choice(ANIMALS)} {rng.choice(ANIMAL_ACTS)} {rng.choice(PLACES)}."
    if kind == 1:
        return f"{rng.choice(TIMES)} {rng.choice(PEOPLE)} {rng.choice(PEOPLE_ACTS)} {rng.choice(PLACES)}."
    if kind == 2:
        return f"{rng.choice(TIMES)} {rng.choice(WEATHER)} and {rng.choice(ANIMALS)} is {rng.choice(FEELINGS)}."
    if kind == 3:
        return f"{rng.choice(PEOPLE)} sees {rng.choice(ANIMALS)} {rng.choice(PLACES)}."
    if kind == 4:
        return f"{rng.choice(WEATHER)}, so {rng.choice(PEOPLE)} {rng.choice(PEOPLE_ACTS)}."
    return f"{rng.choice(ANIMALS)} is {rng.choice(FEELINGS)} and {rng.choice(ANIMAL_ACTS)} {rng.choice(TIMES)}."


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    lines = []
    for _ in range(400):
        text = sentence()
        lines.append(text[0].upper() + text[1:])
    with open(os.path.join(root, "Samples", "lm", "garden.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
