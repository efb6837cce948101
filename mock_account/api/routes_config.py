"""Harness extras: the agents' configuration history (SPEC §10).

Every endpoint is ``POST`` with a JSON body and a valid token; the author of a save is the
caller. Refusals: 404 for an unknown agent or a version no longer kept, 409 when the agent
changed since ``baseRevision`` (or a clone's name is taken), 422 for a configuration that is not
a valid agent or breaks the naming scheme (``error.data`` lists the problems or findings), 503
when the store is unavailable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import Field
from starlette.responses import JSONResponse

from mock_account.api.auth import CurrentUser, DeploymentDep
from mock_account.api.docs import error_doc
from mock_account.api.harness_router import harness_router
from mock_account.api.models import RequestModel
from mock_account.api.responses import error_response
from mock_account.config_history import (
    SECTIONS,
    ConfigFormatError,
    ConfigRefused,
    UnknownAgent,
    split_agent,
)
from mock_account.stores.errors import VersionConflict

router = harness_router(
    {
        404: error_doc("Unknown agent, or a version that is no longer kept."),
        409: error_doc("The agent changed since baseRevision, or the name is taken."),
    }
)

Section = Literal["description", "commands", "asks"]
NAME_RE = r"^[A-Za-z][A-Za-z0-9_]*[A-Za-z0-9]$"
AgentName = Field(
    min_length=2,
    max_length=32,
    pattern=NAME_RE,
    description="The agent's name.",
    examples=["BookBusinessFlight"],
)
SectionField = Field(description="One section of the configuration: " + ", ".join(SECTIONS) + ".")
RevisionField = Field(ge=0, description="A version: the agent's revision when it was saved.")
T = TypeVar("T")


class AgentConfigRequest(RequestModel):
    """Names one agent."""

    agent_name: str = AgentName


class ListVersionsRequest(RequestModel):
    """One agent, and optionally one of its sections (all of them otherwise)."""

    agent_name: str = AgentName
    section: Section | None = Field(default=None, description="Only this section.")


class DiffRequest(RequestModel):
    """A version of a section, and the one to compare it with (the current one by default)."""

    agent_name: str = AgentName
    section: Section = SectionField
    revision: int = RevisionField
    against: int | None = Field(
        default=None, ge=0, description="The version to compare with; the current one if null."
    )


class SaveRequest(RequestModel):
    """The new content of one section. With ``baseRevision`` the save is refused (409) if the
    agent was saved by someone else since that revision."""

    agent_name: str = AgentName
    section: Section = SectionField
    content: Any = Field(description="The section's content, as getAgentConfig returns it.")
    base_revision: int | None = Field(
        default=None, ge=0, description="Refuse the save if the agent is no longer at it."
    )
    origin: Literal["edit", "template"] = Field(
        default="edit", description="What made this version: an edit or a template applied."
    )


class RestoreRequest(RequestModel):
    """Make a kept version current again (the current one stays in the history)."""

    agent_name: str = AgentName
    section: Section = SectionField
    revision: int = RevisionField


class CloneRequest(RequestModel):
    """A new agent with this one's configuration and no history of its own."""

    agent_name: str = AgentName
    new_name: str = Field(
        min_length=2, max_length=32, pattern=NAME_RE, description="The new agent's name."
    )


def _answer(call: Callable[[], T]) -> T | JSONResponse:
    """The call's result, or the refusal its error deserves."""
    try:
        return call()
    except ConfigRefused as exc:
        return error_response(422, str(exc), extra={"findings": exc.findings})
    except ConfigFormatError as exc:
        return error_response(422, str(exc), extra={"problems": exc.problems or [str(exc)]})
    except UnknownAgent as exc:
        return error_response(404, str(exc))
    except VersionConflict as exc:
        return error_response(409, str(exc))


@router.post("/getAgentConfig", summary="Harness extra: an agent's current configuration")
def get_agent_config(body: AgentConfigRequest, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """The agent's sections as they are now, with its revision and version."""
    history = deployment.config_history

    def read() -> dict[str, Any]:
        agent = history.current(body.agent_name)
        revision = history.store.agent_revisions(history.scope).get(body.agent_name, 0)
        return {
            "success": True,
            "agentName": agent.name,
            "revision": revision,
            "version": agent.version,
            "sections": split_agent(agent),
        }

    return _answer(read)


@router.post("/listAgentConfigVersions", summary="Harness extra: an agent's kept versions")
def list_agent_config_versions(
    body: ListVersionsRequest, user: CurrentUser, deployment: DeploymentDep
) -> Any:
    """The kept versions of each section (or one), newest first, with who saved them, when,
    how (file, edit, template, restore, clone) and their content."""
    history = deployment.config_history
    sections = [body.section] if body.section else list(SECTIONS)

    def read() -> dict[str, Any]:
        return {
            "success": True,
            "agentName": body.agent_name,
            "keep": history.keep,
            "sections": {
                s: [v.to_dict() for v in history.versions(body.agent_name, s)] for s in sections
            },
        }

    return _answer(read)


@router.post("/diffAgentConfig", summary="Harness extra: the difference between two versions")
def diff_agent_config(body: DiffRequest, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """A unified diff of a section from ``revision`` to ``against`` (default: current)."""
    history = deployment.config_history
    return _answer(
        lambda: {
            "success": True,
            "diff": history.diff(body.agent_name, body.section, body.revision, body.against),
        }
    )


@router.post("/saveAgentConfig", summary="Harness extra: save a section, live at once")
def save_agent_config(body: SaveRequest, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """Validate and save one section; the next search and run of every server process use it.
    Saving unchanged content adds no version (``changedSections`` is empty)."""
    history = deployment.config_history
    return _answer(
        lambda: {
            "success": True,
            **history.save(
                body.agent_name,
                body.section,
                body.content,
                author=user.email,
                origin=body.origin,
                base_revision=body.base_revision,
            ).to_dict(),
        }
    )


@router.post("/restoreAgentConfig", summary="Harness extra: restore a version (undoable)")
def restore_agent_config(body: RestoreRequest, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """Validate a kept version against the current agent format and make it current; the
    version it replaces stays in the history, so restoring that one undoes the restore."""
    history = deployment.config_history
    return _answer(
        lambda: {
            "success": True,
            **history.restore(
                body.agent_name, body.section, body.revision, author=user.email
            ).to_dict(),
        }
    )


@router.post("/cloneAgent", summary="Harness extra: clone an agent's configuration")
def clone_agent(body: CloneRequest, user: CurrentUser, deployment: DeploymentDep) -> Any:
    """A new agent, searchable and runnable at once, with this one's configuration and no
    history of its own."""
    history = deployment.config_history
    return _answer(
        lambda: {
            "success": True,
            **history.clone(body.agent_name, body.new_name, author=user.email).to_dict(),
        }
    )
