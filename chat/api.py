"""The chat's API routes (added to the API by ``FABULA_API_ROUTERS``)."""

from ninja import Router

router = Router(tags=["chat"])
