# syntax=docker/dockerfile:1
# The bot as a slim, non-root image. Settings come from the environment (docker-compose.yml reads
# them from .env); nothing secret is baked in. Build: docker build -t magisterium-discord-bot .
# Without Docker: python -m devtools image (buildah) builds it and checks its health check.

# --- builder: wheels of the project and every dependency -------------------------------------
FROM python:3.11-slim AS builder
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
# The dependencies first, exactly as pinned in requirements.lock: pip checks every download against
# its sha256 there, so a changed or substituted file fails the build (and this layer stays cached
# until the lock changes). Wheels only: building an sdist would fetch its build tools unpinned.
COPY requirements.lock ./
RUN pip wheel --require-hashes --only-binary=:all: -r requirements.lock --wheel-dir /wheels
# The project's build backend, pinned and hashed in requirements-build.lock, installed here so that
# building the project's own wheel (without build isolation) fetches nothing at all.
COPY requirements-build.lock ./
RUN pip install --require-hashes --only-binary=:all: -r requirements-build.lock
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip wheel --no-deps --no-build-isolation --no-index --wheel-dir /wheels .

# --- runtime: the wheels installed offline, run as an unprivileged user ------------------------
FROM python:3.11-slim AS runtime
# MPLCONFIGDIR: matplotlib's config and font cache, in /tmp (the user's home, /app, is root's, and
# docker-compose.yml mounts the root file system read-only with a tmpfs on /tmp).
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MPLCONFIGDIR=/tmp/matplotlib \
    WEB_HOST=0.0.0.0 \
    WEB_PORT=8080 \
    OPERATOR_HOST=127.0.0.1 \
    OPERATOR_PORT=9091 \
    LOG_FORMAT=json
RUN groupadd --gid 10001 magisterium \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /app \
        --shell /usr/sbin/nologin magisterium
# Mounted from the builder rather than copied, so no layer keeps the wheels.
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    pip install --no-index --find-links=/wheels 'magisterium-discord-bot[sentry]'
WORKDIR /app
# The default DATABASE_URL (SQLite) lives in ./data; docker-compose.yml uses PostgreSQL instead.
RUN mkdir /app/data && chown 10001:10001 /app/data
VOLUME ["/app/data"]
USER 10001:10001
# The public pages and sign-in. The operator's port (/healthz, /readyz, /metrics) is not exposed:
# it answers on 127.0.0.1 inside the container unless OPERATOR_HOST says otherwise.
EXPOSE 8080
# slim has no curl: ask the operator's /healthz with Python's urllib (any error or non-2xx fails).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('OPERATOR_PORT', '9091') + '/healthz', timeout=4)"]
# SIGTERM (docker stop) drains commands in flight for SHUTDOWN_GRACE_SECONDS, then exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["magisterium-bot"]
CMD ["run"]
