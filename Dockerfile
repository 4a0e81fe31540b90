# A runnable image of the bot. The database lives on the /data volume; the token comes from the environment:
#   docker build -t boardgames-bot .
#   docker run -d --name boardgames -e DISCORD_TOKEN=... -v boardgames-data:/data boardgames-bot
#   docker run -it --rm boardgames-bot play tintas        # any other entry point: python -m bot <command> …
# Several processes over PostgreSQL: docker-compose.yml.
# Pinned: the Python release and the Debian release it is built on (bump both on purpose, then rebuild).
FROM python:3.11.14-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/boardgames.sqlite3 \
    HEALTH_PORT=8080

WORKDIR /app
# FriBiDi: Pillow's wheel carries libraqm but loads FriBiDi from the system; without it text is laid out
# without bidi or Arabic shaping (render/common.py draws right-to-left names with raqm).
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 && rm -rf /var/lib/apt/lists/*
# The dependencies first, the locked versions the bot needs (no developer tools), checked against their hashes,
# so a code change reuses this layer.
COPY requirements/bot.txt ./requirements/bot.txt
RUN pip install --no-cache-dir --require-hashes -r requirements/bot.txt
# Then the code, without touching the dependencies.
COPY pyproject.toml README.md ./
COPY engines ./engines
COPY render ./render
COPY bot ./bot
COPY ai ./ai
COPY procs ./procs
RUN pip install --no-cache-dir --no-deps . \
    && useradd --create-home --uid 10001 player \
    && mkdir -p /data && chown player /data

USER player
VOLUME ["/data"]
EXPOSE 8080
# Ready once the database is open and migrated and Discord's gateway is connected (see bot/health.py).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('HEALTH_PORT', '8080'); sys.exit(0 if port == '0' else urllib.request.urlopen(f'http://127.0.0.1:{port}/readyz', timeout=4).status != 200)"]
# python is PID 1 and handles SIGTERM itself: the bot closes everything and exits 0 (no 10-second kill).
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
