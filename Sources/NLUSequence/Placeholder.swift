// NLUSequence: see DESIGN.md
