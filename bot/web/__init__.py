"""Match pages on the web: a small aiohttp server, Discord-free, reading through the services (issue [19])."""
