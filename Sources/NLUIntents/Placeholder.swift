// NLUIntents: see DESIGN.md
