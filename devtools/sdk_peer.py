"""a2a-sdk 1.3.0 run as a real A2A server that answers like Magisterium.

Nobody on this project wrote the server side: the SDK's own JSON-RPC dispatcher, request
handler and task store answer, with its v0.3 compatibility layer switched on so that
``message/send``, ``tasks/get`` and parts with ``kind`` are understood. Only the agent logic
is ours: :class:`CatholicQAExecutor` (one fixed catholic_qa answer, what the benchmark serves)
and ``tests.support.sdk_skills.MagisteriumExecutor`` (all ten skills, with the fake's content).

Used by the interop tests and ``bench/a2a_client.py`` over loopback TCP
(:func:`running_sdk_server`, uvicorn), or in-process through :func:`build_app`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from a2a.helpers import new_data_part, new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
)
from a2a.utils.errors import TaskNotCancelableError
from google.protobuf.json_format import MessageToDict
from starlette.applications import Starlette

from devtools.fake_magisterium.skills import SKILLS

ARTIFACT_NAME = "catholic_qa_response"
DEFAULT_ANSWER = "Grace is the free and undeserved help that God gives us [1]."
DEFAULT_CITATIONS: list[dict[str, Any]] = [
    {
        "document_title": "Catechism of the Catholic Church",
        "document_index": 0,
        "cited_text": "Grace is favor, the free and undeserved help that God gives us.",
        "source_url": "https://www.vatican.va/archive/ENG0015/__P7B.HTM",
    }
]
DEFAULT_RELATED = ["What is sanctifying grace?", "How do the sacraments give grace?"]


@dataclass(frozen=True)
class SeenRequest:
    """What the executor saw of one ``message/send``, as the SDK handed it over."""

    task_id: str
    context_id: str
    text: str
    message_metadata: dict[str, Any]


@dataclass
class RecordingExecutor(AgentExecutor):
    """An executor that records what each ``message/send`` brought and refuses to cancel."""

    seen: list[SeenRequest] = field(default_factory=list)

    async def start_task(self, context: RequestContext, event_queue: EventQueue) -> TaskUpdater:
        """Record what arrived, enqueue the Task (the SDK needs it first), return its updater."""
        message = context.message
        if message is None:  # the SDK always passes one for message/send
            raise RuntimeError("message/send without a message")
        task = new_task_from_user_message(message)
        self.seen.append(
            SeenRequest(
                task_id=task.id,
                context_id=task.context_id,
                text=context.get_user_input(),
                # Message metadata arrives as a protobuf Struct.
                message_metadata=MessageToDict(message.metadata),
            )
        )
        await event_queue.enqueue_event(task)
        return TaskUpdater(event_queue, task.id, task.context_id)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        # Like Magisterium: every task is terminal by the time anyone can name it.
        raise TaskNotCancelableError


@dataclass
class CatholicQAExecutor(RecordingExecutor):
    """Answers every message like Magisterium's catholic_qa: one artifact, then completed."""

    answer: str = DEFAULT_ANSWER
    citations: list[dict[str, Any]] = field(default_factory=lambda: list(DEFAULT_CITATIONS))
    related_questions: list[str] = field(default_factory=lambda: list(DEFAULT_RELATED))

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = await self.start_task(context, event_queue)
        parts = [new_text_part(self.answer)]
        if self.citations:
            parts.append(new_data_part({"citations": self.citations}))
        if self.related_questions:
            parts.append(new_data_part({"related_questions": self.related_questions}))
        await updater.add_artifact(parts, name=ARTIFACT_NAME)
        await updater.complete()


def agent_card(url: str, *, protocol_version: str = "0.3") -> AgentCard:
    """A card announcing one JSON-RPC interface at ``url`` speaking ``protocol_version``.

    The SDK's ``ClientFactory`` picks its v0.3 transport (``CompatJsonRpcTransport``) when
    the interface's ``protocol_version`` is in [0.3, 1.0).
    """
    return AgentCard(
        name="Magisterium AI (a2a-sdk peer)",
        description="a2a-sdk server answering like Magisterium",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version=protocol_version)
        ],
        capabilities=AgentCapabilities(streaming=False, push_notifications=False),
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain", "application/json"],
        skills=[
            AgentSkill(id=skill.id, name=skill.name, description=skill.description, tags=[skill.id])
            for skill in SKILLS.values()
        ],
    )


def build_app(executor: AgentExecutor, *, url: str = "http://sdk-peer/") -> Starlette:
    """The SDK's JSON-RPC endpoint at ``/`` with v0.3 compatibility on, as a Starlette app."""
    handler = DefaultRequestHandler(
        agent_executor=executor,
        task_store=InMemoryTaskStore(),
        agent_card=agent_card(url),
    )
    return Starlette(routes=create_jsonrpc_routes(handler, rpc_url="/", enable_v0_3_compat=True))


@dataclass(frozen=True)
class RunningServer:
    url: str
    executor: RecordingExecutor


@contextlib.asynccontextmanager
async def running_sdk_server(
    executor: RecordingExecutor | None = None, *, host: str = "127.0.0.1", port: int = 0
) -> AsyncIterator[RunningServer]:
    """Serve :func:`build_app` with uvicorn on a real TCP socket (port 0: any free port)."""
    import uvicorn

    executor = executor or CatholicQAExecutor()
    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY on accepted connections only when
    # the listening socket says TCP explicitly; with proto 0 every response stalls ~40 ms
    # (Nagle against delayed ACK).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound_port = sock.getsockname()[1]
    url = f"http://{host}:{bound_port}/"
    config = uvicorn.Config(
        build_app(executor, url=url),
        log_level="warning",
        access_log=False,
        lifespan="off",
        backlog=2048,
    )
    server = uvicorn.Server(config)
    # The SDK logs each call's headers at DEBUG, bearer token included: a real server's logs,
    # not the bot's, so they stay out of the run's log guard (tests/support/log_guard.py).
    sdk_logger = logging.getLogger("a2a")
    sdk_level = sdk_logger.level
    sdk_logger.setLevel(max(sdk_level, logging.INFO))
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if serving.done():
                serving.result()  # surfaces the startup error
                raise RuntimeError("uvicorn stopped before it started")
            await asyncio.sleep(0.01)
        yield RunningServer(url=url, executor=executor)
    finally:
        server.should_exit = True
        await serving
        sock.close()
        sdk_logger.setLevel(sdk_level)
