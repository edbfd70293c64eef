FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=config.settings.production
WORKDIR /app
# The locked runtime versions first (a layer that changes only with the lock; bin/lock
# refreshes it), then Fabula itself without resolving anything again.
COPY requirements/base.txt requirements/base.txt
RUN pip install --no-cache-dir -r requirements/base.txt
COPY . .
RUN pip install --no-cache-dir --no-deps . && DJANGO_SECRET_KEY=build DJANGO_ALLOWED_HOSTS=x DATABASE_URL=sqlite:////tmp/x.db \
    REDIS_URL=redis://build EMAIL_URL=dummymail:// \
    python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers", "--loop", "uvloop", "--http", "infrastructure.undocumented.http_protocol:BoundedHttpToolsProtocol", "--ws", "websockets-sansio"]
