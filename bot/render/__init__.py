"""Game pictures drawn with Pillow: one module per game, fonts and text safety shared."""
