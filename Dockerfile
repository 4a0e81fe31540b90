# A runnable image of the bot. The database lives on the /data volume; the token comes from the environment:
#   docker build -t boardgames-bot .
#   docker run -d --name boardgames -e DISCORD_TOKEN=... -v boardgames-data:/data boardgames-bot
#   docker run -it --rm boardgames-bot play tintas        # any other entry point: python -m bot <command> …
# Several processes over PostgreSQL: docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/boardgames.sqlite3 \
    HEALTH_PORT=8080

WORKDIR /app
# The dependencies first, from pyproject.toml alone (with empty packages), so a code change reuses this layer.
COPY pyproject.toml README.md ./
RUN mkdir -p engines render bot ai \
    && touch engines/__init__.py render/__init__.py bot/__init__.py ai/__init__.py \
    && pip install --no-cache-dir . \
    && pip uninstall -y boardgames-bot \
    && rm -rf engines render bot ai build *.egg-info
# Then the code, without touching the dependencies.
COPY engines ./engines
COPY render ./render
COPY bot ./bot
COPY ai ./ai
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
