"""The forms answers are printed in, beyond JSON: the readable tree (`text`)."""
