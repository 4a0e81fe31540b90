# A runnable image of the bot. The database lives on the /data volume; the token comes from the environment:
#   docker build -t boardgames-bot .
#   docker run -d --name boardgames -e DISCORD_TOKEN=... -v boardgames-data:/data boardgames-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/boardgames.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engines ./engines
COPY render ./render
COPY bot ./bot
COPY ai ./ai
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 player \
    && mkdir -p /data && chown player /data

USER player
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
