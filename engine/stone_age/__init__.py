"""Stone Age: the rules, the components and the game behind the engine protocol."""
