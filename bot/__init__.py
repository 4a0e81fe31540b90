"""The Discord bot, its storage and the Discord-free match service."""
