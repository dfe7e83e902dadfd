#!/usr/bin/env python3
"""A generated reading-comprehension set in the SQuAD v2.0 format, for `nlu qa train` / `nlu qa evaluate`
where no public QA data can be downloaded (docs/question-answering.md, "Fine-tuning").

Each context describes two invented people (birthplace and year, studies, employer, the organisation
they founded and its city, spouse, children) in shuffled sentence order, so that an answer must be read
for the right person; questions ask one fact of one of them, and about one in ten asks something the
context does not say (`is_impossible`). The held-out file uses first and last names that never occur in
the training file, so a model cannot answer it from memorised names.

    python3 -P scripts/generate_reading_comprehension.py OUTPUT_FOLDER [--train 600] [--test 200] [--seed 41]

Writes OUTPUT_FOLDER/train.json and OUTPUT_FOLDER/test.json (standard library only).
"""
import argparse
import json
import os
import random

FIRST = ("Amelia Bruno Clara Dmitri Elena Farid Greta Hiro Ingrid Jonas Kenji Lena Marco Nadia Oskar Priya Quentin Rosa "
         "Stefan Talia Umar Vera Walter Xenia Yusuf Zoe Anton Beatrix Cyril Dalia Emil Fiona Gustav Helena Ivan Julia "
         "Karim Lucia Mateo Nora Otto Paula Rafael Sofia Tomas Ursula Viktor Wanda Yara Zeno").split()
LAST = ("Abbott Becker Castillo Dubois Eriksen Fischer Garcia Horvat Ivanova Jensen Kowalski Lindqvist Moreau Novak "
        "Okafor Petrov Quinn Rossi Schmidt Tanaka Ulrich Varga Weber Xu Yilmaz Zimmermann Almeida Brandt Costa Dahl "
        "Engel Ferreira Gallo Hansen Iversen Jovanovic Keller Lang Meyer Nilsen Ortiz Pavlov Reyes Sato Torres Vogel "
        "Wagner Young Zanetti").split()
CITIES = ("Lisbon Oslo Krakow Lyon Porto Graz Leeds Turin Bilbao Utrecht Ghent Malmo Tartu Riga Brno Split Bergen "
          "Aarhus Dresden Seville Bologna Zagreb Vilnius Tampere Cork Basel Nantes Gdansk Salzburg Valencia").split()
SUBJECTS = ("chemistry physics history economics architecture medicine geology linguistics mathematics philosophy "
            "biology astronomy law music engineering").split()
PROFESSIONS = "engineer teacher journalist pharmacist architect pilot surgeon librarian chemist designer".split()
COMPANIES = ("Northwind Bluefield Orion Halcyon Meridian Vantage Sterling Crescent Summit Keystone Evergreen Pinnacle "
             "Horizon Lakeside Redwood Silverline").split()
KINDS = ["a bakery", "a publishing house", "a robotics startup", "a music school", "a bicycle company", "a research institute",
         "a shipping firm", "a small theatre", "a software company", "a coffee roastery"]
COUNTS = ["two", "three", "four", "five", "no"]


def person(rng, firsts, lasts, used):
    if len(used) >= len(firsts) * len(lasts):
        used.clear()  # every name taken: people of a new round of contexts may share names with earlier ones
    while True:
        name = (rng.choice(firsts), rng.choice(lasts))
        if name not in used:
            used.add(name)
            return name


def describe(rng, first, last, spouse):
    facts = {
        "city": rng.choice(CITIES), "year": str(rng.randint(1931, 1999)), "subject": rng.choice(SUBJECTS),
        "university": rng.choice(CITIES), "profession": rng.choice(PROFESSIONS), "company": rng.choice(COMPANIES) + " " + rng.choice(["Labs", "Group", "Systems", "Partners"]),
        "founded": rng.choice(KINDS), "org_city": rng.choice(CITIES), "spouse": spouse, "children": rng.choice(COUNTS),
        "founded_year": None,
    }
    facts["founded_year"] = str(int(facts["year"]) + rng.randint(25, 45))
    pronoun = rng.choice(["He", "She"])
    sentences = [
        ("city", f"{first} {last} was born in {facts['city']} in {facts['year']}."),
        ("subject", f"{first} studied {facts['subject']} at the University of {facts['university']}."),
        ("company", f"{pronoun} later worked as a {facts['profession']} for {facts['company']}."),
        ("founded", f"In {facts['founded_year']}, {last} founded {facts['founded']} in {facts['org_city']}."),
        ("spouse", f"{last} is married to {facts['spouse']} and has {facts['children']} children."),
    ]
    # The first sentence names the person in full; the others may come in any order after it.
    rest = sentences[1:]
    rng.shuffle(rest)
    return facts, [sentences[0]] + rest


QUESTIONS = [
    ("city", "Where was {first} {last} born?", "city"),
    ("city", "In what year was {first} {last} born?", "year"),
    ("subject", "What did {first} {last} study?", "subject"),
    ("company", "Which company did {first} {last} work for?", "company"),
    ("company", "What was {first} {last}'s job at {company}?", "profession"),
    ("founded", "What did {first} {last} found?", "founded"),
    ("founded", "In which city did {first} {last} found {founded}?", "org_city"),
    ("spouse", "Who is {first} {last} married to?", "spouse"),
    ("spouse", "How many children does {first} {last} have?", "children"),
]
IMPOSSIBLE = ["What is {first} {last}'s favourite food?", "Which instrument does {first} {last} play?",
              "When did {first} {last} retire?"]


def paragraph(rng, firsts, lasts, used, qid_prefix, questions_per_context):
    people = []
    for _ in range(2):
        first, last = person(rng, firsts, lasts, used)
        spouse_first, spouse_last = person(rng, firsts, lasts, used)
        facts, sentences = describe(rng, first, last, f"{spouse_first} {spouse_last}")
        people.append((first, last, facts, sentences))
    context = " ".join(text for _, _, _, sentences in people for _, text in sentences)
    qas = []
    for number in range(questions_per_context):
        first, last, facts, _ = rng.choice(people)
        qid = f"{qid_prefix}-{number}"
        if rng.random() < 0.1:
            question = rng.choice(IMPOSSIBLE).format(first=first, last=last)
            qas.append({"id": qid, "question": question, "is_impossible": True, "answers": []})
            continue
        _, template, field = rng.choice(QUESTIONS)
        question = template.format(first=first, last=last, company=facts["company"], founded=facts["founded"])
        answer = facts[field]
        # The answer's occurrence in this person's sentences (an earlier equal text may belong to the other person).
        own = " ".join(text for f, l, _, sentences in people if (f, l) == (first, last) for _, text in sentences)
        offset = context.index(own)
        start = offset + own.index(answer if field != "year" else f"in {answer}") + (0 if field != "year" else 3)
        assert context[start:start + len(answer)] == answer
        qas.append({"id": qid, "question": question, "is_impossible": False, "answers": [{"text": answer, "answer_start": start}]})
    return {"context": context, "qas": qas}


def dataset(rng, firsts, lasts, questions, prefix):
    used = set()
    paragraphs = []
    count = 0
    while count < questions:
        take = min(3, questions - count)
        paragraphs.append(paragraph(rng, firsts, lasts, used, f"{prefix}{len(paragraphs)}", take))
        count += take
    return {"version": "v2.0", "data": [{"title": "Generated reading comprehension", "paragraphs": paragraphs}]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output")
    parser.add_argument("--train", type=int, default=600)
    parser.add_argument("--test", type=int, default=200)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    # Held-out people: first and last names of their own.
    train = dataset(rng, FIRST[:34], LAST[:32], args.train, "train")
    test = dataset(rng, FIRST[34:], LAST[32:], args.test, "test")
    os.makedirs(args.output, exist_ok=True)
    for name, data in [("train.json", train), ("test.json", test)]:
        with open(os.path.join(args.output, name), "w") as f:
            json.dump(data, f, indent=1)
        questions = sum(len(p["qas"]) for p in data["data"][0]["paragraphs"])
        print(f"{os.path.join(args.output, name)}: {questions} questions in {len(data['data'][0]['paragraphs'])} contexts")


if __name__ == "__main__":
    main()
