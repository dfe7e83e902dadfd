// NLUQuestionAnswering: see DESIGN.md
