"""Voice receive, utterance segmentation, speech-to-text and transcript ingest."""
