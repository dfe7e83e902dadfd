// NLUText: see DESIGN.md
