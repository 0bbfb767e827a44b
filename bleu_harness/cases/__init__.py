"""Case files: the model, the loader and the lint."""
