#!/usr/bin/env python3
"""Intent accuracy and slot F1 per language beside English, on xSID (and on Facebook's multilingual
task-oriented dialog data for Spanish and Thai), with NLUKit's default pipeline before and after a change,
and scikit-learn / CRFsuite baselines in the same run.

xSID (van der Goot et al., NAACL 2021; github mainlp/xsid, CC BY-SA 4.0) has, per language, a dev set
(300 utterances; Japanese 150) and a test set (500; Japanese 250) of the same intents and slots
(alarm, reminder, weather, Snips). Its training data is English only, so here every language trains on
its own dev set and is scored on its own test set: a small monolingual set per language.

The Chinese and Japanese `# text` lines of the files are tokenized with spaces; text as users write it
has none, so an utterance is its tokens joined without spaces (a space is kept only between two ASCII
letters or digits: "iPhone X"); English tokens are joined with spaces. xSID splits an elided article off its word
("l' ora"); `--glue-elisions` joins them as Italian is written ("l'ora"). Slots come from the tokens' BIO
labels, as Unicode-scalar spans of that text.

    python3 benchmarks/languages_intents.py --xsid /work/.mirror/mainlp+xsid/repo \\
        --nlu .build/debug/nlu --nlu-before /tmp/nlu-before
    python3 benchmarks/languages_intents.py --dataset facebook --languages en,es,th \\
        --facebook /work/.mirror/zliucr+mixed-language-training/repo/.git

The default languages are every xSID language NLUKit has a Snowball stemmer (ar, da, de, id, it, lt, nl,
no, sr, tr) or a segmentation (zh, ja) for, and English. The Facebook data (Schuster et al., NAACL 2019,
CC BY-SA; its PyText TSV files, found in github zliucr/mixed-language-training under data/nlu/nlu_data)
trains on each language's train split and is scored on its test split; its English train file is absent
from that snapshot (a large file), so English trains on its eval split (4,181 utterances) instead. Its slots
are character spans of the untokenized utterance, kept as they are.

`--xsid` is a checkout or a bare git directory (read with `git show`, nothing copied); `--nlu-before`
is optional (an `nlu` built before the change). Each NLUKit model trains with `nlu intents train` (default
options, the dataset's language, `--seed` 1, 2, 3) and is scored with `nlu intents evaluate --json`; the
table gives the mean over the seeds. The baseline: TF-IDF over character n-grams (`char_wb`, 1-4,
sublinear tf) + LogisticRegression (C 10), scikit-learn 1.9.1 (scripts/reference-requirements.txt); where
jieba 0.42.1 (Chinese) or janome 0.5.0 (Japanese) is installed, the same with the dictionary segmenter's words
(unigrams and bigrams) added: whether a dictionary segmenter helps beyond characters on this data. The slot
baseline, where python-crfsuite (0.9.12) is installed: a linear-chain CRF (L-BFGS, c1 0.1, c2 0.01, 100
iterations) over BIO tags of the same words NLUKit sees roughly (runs of letters and digits, one word per
Han / kana / Thai character, punctuation alone) with simple word features (the lowercased word, its 3- and
2-letter suffixes and prefix, shape flags, the words either side), scored like `nlu intents evaluate`:
micro F1 over exact (slot, start, end) mentions.
"""
import argparse
import json
import re
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import repository_files  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNSPACED = {"ja", "zh"}
# --glue-elisions: a token ending in an apostrophe after a letter ("l'", "dell'", "un'") is joined to the next
# one, as French and Italian are written ("l'ora"), where xSID's tokens split it off ("l' ora").
GLUE_ELISIONS = False
# Every xSID 0.7 language NLUKit stems (Snowball) or segments (Chinese, Japanese), English first.
XSID_LANGUAGES = "en,ar,da,de,id,it,lt,nl,no,sr,tr,zh,ja"


def read_conll(xsid, version, name):
    """The file's text, from a checkout or a bare git directory."""
    return repository_files.read(xsid, f"data/{version}/{name}")


def utterances(conll, language):
    """[(text, intent, [(start, end, slot)])] from xSID's CoNLL: one block per utterance. Norwegian holds
    each utterance eleven times, in Bokmål (`# dialect = B`) and in ten dialect transcriptions (N, T, V);
    only the Bokmål one is kept, so Norwegian has 300 / 500 utterances as the other languages."""
    result = []
    for block in conll.split("\n\n"):
        intent, tokens = None, []
        if "\n# dialect = " in "\n" + block and "\n# dialect = B" not in "\n" + block:
            continue
        for line in block.split("\n"):
            if line.startswith("# intent = "):
                intent = line[len("# intent = "):].strip()
            elif line and not line.startswith("#"):
                fields = line.split("\t")
                if len(fields) >= 4:
                    tokens.append((fields[1], fields[3]))
        if intent is None or not tokens:
            continue
        text, spans, open_span = "", [], None
        for word, label in tokens:
            if not word:
                continue
            if text:
                ascii_pair = text[-1].isascii() and text[-1].isalnum() and word[0].isascii() and word[0].isalnum()
                elided = GLUE_ELISIONS and text[-1] in "'’" and len(text) >= 2 and text[-2].isalpha()
                if (language not in UNSPACED or ascii_pair) and not elided:
                    text += " "
            start = len(text)  # Python counts Unicode scalars, as NLUKit's offsets do
            text += word
            if label.startswith("B-") or (label.startswith("I-") and (open_span is None or open_span[2] != label[2:])):
                if open_span:
                    spans.append(tuple(open_span))
                open_span = [start, len(text), label[2:]]
            elif label.startswith("I-"):
                open_span[1] = len(text)
            else:
                if open_span:
                    spans.append(tuple(open_span))
                open_span = None
        if open_span:
            spans.append(tuple(open_span))
        if text.strip():
            result.append((text, intent, spans))
    return result


def read_facebook(root, language, split):
    """[(text, intent, [(start, end, slot)])] from the PyText TSV of Facebook's multilingual task-oriented
    dialog data (`<language>/<split>-<language>.tsv`): intent, slots as `start:end:slot` character spans,
    the utterance. From a directory or a (bare) git directory read with `git show`."""
    name = f"data/nlu/nlu_data/{language}/{split}-{language}.tsv"
    content = repository_files.read(root, name)
    result = []
    for line in content.split("\n"):
        fields = line.split("\t")
        if len(fields) < 3 or not fields[2].strip():
            continue
        intent, slots, text = fields[0], fields[1], fields[2].rstrip()
        spans = []
        for slot in filter(None, slots.split(",")):
            start, end, name = slot.split(":", 2)
            start, end = int(start), min(int(end), len(text))
            while end > start and text[end - 1].isspace():  # a few spans end in the trailing space
                end -= 1
            if 0 <= start < end:  # one Spanish test span starts at -2: dropped
                spans.append((start, end, name))
        result.append((text, intent, spans))
    return result


def write_dataset(path, language, rows):
    intents = {}
    for text, intent, spans in rows:
        entities = [{"start": s, "end": e, "entity": slot, "value": text[s:e]} for s, e, slot in spans]
        utterance = {"text": text}
        if entities:
            utterance["entities"] = entities
        intents.setdefault(intent, []).append(utterance)
    dataset = {"format": "nlukit-intents", "version": 1, "language": language,
               "intents": [{"name": name, "utterances": examples} for name, examples in sorted(intents.items())]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(dataset, f, ensure_ascii=False)


def nlukit(nlu, train_path, test_path, work, seed):
    model = os.path.join(work, f"model-{os.getpid()}-{seed}.nlumodel")
    started = time.time()
    run = subprocess.run([nlu, "intents", "train", train_path, "--output", model, "--seed", str(seed)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{nlu} intents train failed:\n{run.stderr[-3000:]}")
    seconds = time.time() - started
    run = subprocess.run([nlu, "intents", "evaluate", "--model", model, test_path, "--json"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{nlu} intents evaluate failed:\n{run.stderr[-3000:]}")
    report = json.loads(run.stdout)
    slots = (report.get("entities") or {}).get("microF1")
    return report["accuracy"], slots, seconds


def dictionary_segmenter(language):
    """A dictionary word segmenter for `language` (jieba 0.42.1 for Chinese, janome 0.5.0 for Japanese),
    or None when the language has none here or the package is not installed (then the row is skipped)."""
    try:
        if language == "zh":
            import jieba
            jieba.setLogLevel(60)
            return lambda text: [w for w in jieba.lcut(text) if w.strip()]
        if language == "ja":
            from janome.tokenizer import Tokenizer
            tokenizer = Tokenizer(wakati=True)
            return lambda text: [w for w in tokenizer.tokenize(text) if w.strip()]
    except ImportError:
        return None
    return None


def sklearn_baseline(train, test, segmenter=None):
    """TF-IDF over character n-grams + logistic regression; with `segmenter`, the dictionary words' unigrams
    and bigrams are added as features (does a dictionary segmenter help beyond the characters?)."""
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import accuracy_score
    vectorizers = [TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 4), sublinear_tf=True)]
    if segmenter:
        vectorizers.append(TfidfVectorizer(analyzer=lambda text: (lambda w: w + [a + " " + b for a, b in zip(w, w[1:])])(segmenter(text.lower())),
                                           sublinear_tf=True))
    features = hstack([v.fit_transform([t for t, _, _ in train]) for v in vectorizers]).tocsr()
    classifier = LogisticRegression(C=10, max_iter=5000)
    classifier.fit(features, [i for _, i, _ in train])
    test_features = hstack([v.transform([t for t, _, _ in test]) for v in vectorizers]).tocsr()
    predicted = classifier.predict(test_features)
    return accuracy_score([i for _, i, _ in test], predicted)


UNSPACED_CHARACTER = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def crf_words(text):
    """(start, end) of each word: runs of letters, digits and marks; one word per Han, kana or Thai character
    (a rough stand-in for NLUKit's UAX #29 words); other characters alone."""
    words = []
    for match in re.finditer(r"\w+|[^\w\s]", text):
        start = match.start()
        for index in range(match.start(), match.end()):
            if UNSPACED_CHARACTER.match(text[index]):
                if index > start:
                    words.append((start, index))
                words.append((index, index + 1))
                start = index + 1
        if match.end() > start:
            words.append((start, match.end()))
    return words


def crf_features(text, words):
    def of(word, prefix):
        lower = word.lower()
        return {f"{prefix}w": lower, f"{prefix}s3": lower[-3:], f"{prefix}s2": lower[-2:], f"{prefix}p3": lower[:3],
                f"{prefix}digit": word.isdigit(), f"{prefix}title": word.istitle(), f"{prefix}upper": word.isupper()}
    tokens = [text[s:e] for s, e in words]
    features = []
    for index, token in enumerate(tokens):
        feature = {"bias": 1.0, **of(token, "")}
        feature.update({k: v for k, v in of(tokens[index - 1], "-1").items() if k in ("-1w", "-1s3")} if index > 0 else {"BOS": True})
        feature.update({k: v for k, v in of(tokens[index + 1], "+1").items() if k in ("+1w", "+1s3")} if index + 1 < len(tokens) else {"EOS": True})
        features.append({k: (v if isinstance(v, (bool, float)) else str(v)) for k, v in feature.items()})
    return features


def crf_labels(words, spans):
    labels = []
    for start, end in words:
        label = "O"
        for s, e, slot in spans:
            if s <= start and end <= e:
                label = ("B-" if start == s or not any(lab != "O" and lab[2:] == slot for lab in labels[-1:]) else "I-") + slot
                break
        labels.append(label)
    return labels


def crf_mentions(words, labels):
    mentions, current = set(), None
    for (start, end), label in zip(words, labels):
        if label.startswith("B-") or (label.startswith("I-") and (current is None or current[2] != label[2:])):
            if current:
                mentions.add(tuple(current))
            current = [start, end, label[2:]]
        elif label.startswith("I-"):
            current[1] = end
        else:
            if current:
                mentions.add(tuple(current))
            current = None
    if current:
        mentions.add(tuple(current))
    return mentions


def crf_baseline(train, test, work):
    """Slot micro F1 of a CRFsuite tagger with simple word features, or None without python-crfsuite."""
    try:
        import pycrfsuite
    except ImportError:
        return None
    trainer = pycrfsuite.Trainer(verbose=False)
    for text, _, spans in train:
        words = crf_words(text)
        if words:
            trainer.append(crf_features(text, words), crf_labels(words, spans))
    trainer.set_params({"c1": 0.1, "c2": 0.01, "max_iterations": 100, "feature.possible_transitions": True})
    path = os.path.join(work, f"slots-{os.getpid()}.crfsuite")
    trainer.train(path)
    tagger = pycrfsuite.Tagger()
    tagger.open(path)
    true_positives = predicted = support = 0
    for text, _, spans in test:
        words = crf_words(text)
        guess = crf_mentions(words, tagger.tag(crf_features(text, words))) if words else set()
        gold = set(spans)
        true_positives += len(gold & guess)
        predicted += len(guess)
        support += len(gold)
    precision = true_positives / predicted if predicted else 0
    recall = true_positives / support if support else 0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dataset", choices=["xsid", "facebook"], default="xsid")
    parser.add_argument("--xsid", default="/work/.mirror/mainlp+xsid/repo")
    parser.add_argument("--version", default="xSID-0.7")
    parser.add_argument("--facebook", default="/work/.mirror/zliucr+mixed-language-training/repo/.git")
    parser.add_argument("--languages", help=f"xSID: {XSID_LANGUAGES} by default; facebook: en,es,th")
    parser.add_argument("--nlu", default=os.path.join(ROOT, ".build/debug/nlu"))
    parser.add_argument("--nlu-before", help="an nlu built before the change, run beside --nlu")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--glue-elisions", action="store_true",
                        help="join a token that ends in an apostrophe to the next one, as written (\"l'ora\", not \"l' ora\")")
    parser.add_argument("--baselines-only", action="store_true", help="run the scikit-learn and CRFsuite baselines only")
    args = parser.parse_args()
    global GLUE_ELISIONS
    GLUE_ELISIONS = args.glue_elisions
    seeds = [int(s) for s in args.seeds.split(",")]
    binaries = [("NLUKit before", args.nlu_before)] if args.nlu_before else []
    binaries.append(("NLUKit" if not args.nlu_before else "NLUKit after", args.nlu))
    if args.baselines_only:
        binaries = []
    work = tempfile.mkdtemp(prefix="nlukit-xsid-")
    import sklearn
    if args.dataset == "xsid":
        languages = args.languages or XSID_LANGUAGES
        print(f"xSID {args.version}: train on each language's dev set, test on its test set; seeds {seeds}; "
              f"scikit-learn {sklearn.__version__}")
    else:
        languages = args.languages or "en,es,th"
        print(f"Facebook multilingual task-oriented dialog: train on each language's train split (English: eval), "
              f"test on its test split; seeds {seeds}; scikit-learn {sklearn.__version__}")
    print(f"{'language':>8} {'system':>24} {'train':>6} {'test':>5} {'intent acc':>10} {'slot F1':>8} {'train s':>8}")
    for language in languages.split(","):
        if args.dataset == "xsid":
            train = utterances(read_conll(args.xsid, args.version, f"{language}.valid.conll"), language)
            test = utterances(read_conll(args.xsid, args.version, f"{language}.test.conll"), language)
        else:
            train = read_facebook(args.facebook, language, "eval" if language == "en" else "train")
            test = read_facebook(args.facebook, language, "test")
        train_path = os.path.join(work, f"{language}-train.json")
        test_path = os.path.join(work, f"{language}-test.json")
        write_dataset(train_path, language, train)
        write_dataset(test_path, language, test)
        for name, nlu in binaries:
            results = [nlukit(nlu, train_path, test_path, work, seed) for seed in seeds]
            accuracy = statistics.mean(r[0] for r in results)
            slot_values = [r[1] for r in results if r[1] is not None]
            slots = f"{statistics.mean(slot_values) * 100:7.2f}%" if slot_values else f"{'-':>8}"
            spread = max(r[0] for r in results) - min(r[0] for r in results)
            print(f"{language:>8} {name:>24} {len(train):>6} {len(test):>5} {accuracy * 100:9.2f}% {slots} "
                  f"{statistics.mean(r[2] for r in results):8.1f}   (accuracy spread over seeds {spread * 100:.1f})")
        started = time.time()
        accuracy = sklearn_baseline(train, test)
        print(f"{language:>8} {'sklearn char 1-4 + LR':>24} {len(train):>6} {len(test):>5} {accuracy * 100:9.2f}% "
              f"{'-':>8} {time.time() - started:8.1f}")
        started = time.time()
        slots = crf_baseline(train, test, work)
        if slots is not None:
            print(f"{language:>8} {'CRFsuite word features':>24} {len(train):>6} {len(test):>5} {'-':>10} "
                  f"{slots * 100:7.2f}% {time.time() - started:8.1f}")
        segmenter = dictionary_segmenter(language)
        if segmenter:
            started = time.time()
            accuracy = sklearn_baseline(train, test, segmenter)
            print(f"{language:>8} {'sklearn + dictionary words':>24} {len(train):>6} {len(test):>5} {accuracy * 100:9.2f}% "
                  f"{'-':>8} {time.time() - started:8.1f}   ({'jieba' if language == 'zh' else 'janome'} words, unigrams + bigrams)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
