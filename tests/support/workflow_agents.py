"""Agents of the workflow and action tests: a workflow agent and two agents with effects.

OnboardNewHire collects whatever values the request carries (``inputs``) and tries to move on;
SendTeamNotice proposes an email that needs approval (and fails afterwards when asked to, to
show the action stands); PostToCrm writes through a connector without approval.
"""

from __future__ import annotations

from pathlib import Path

AGENTS = {
    "OnboardNewHire": """
name: OnboardNewHire
title: Onboard a new hire
tag: hr
description: Take a new hire through onboarding, over as many conversations as it takes.
examples: ["continue my onboarding", "start my onboarding"]
workflow:
  name: new_hire_onboarding
  title: New-hire onboarding
  stages:
  - name: paperwork
    goals:
    - {collect: legal_name}
    - {collect: start_date, type: date}
    - {collect: contract_signed, type: bool}
    - {name: contract_is_signed, check: {value: contract_signed, op: isTrue}}
    next: equipment
  - name: equipment
    goals:
    - {collect: laptop, type: choice, options: [mac, windows, linux]}
    next: first_day
  - name: first_day
    goals:
    - {collect: buddy, type: email}
main:
  - prompt: {name: chat, user: "{sys.query}"}
  - workflow:
      collect:
        legal_name: "{sys.inputs.legal_name}"
        start_date: "{sys.inputs.start_date}"
        contract_signed: "{sys.inputs.contract_signed}"
        laptop: "{sys.inputs.laptop}"
        buddy: "{sys.inputs.buddy}"
      advance: true
  - output: "Stage {workflow.stage}; open: {workflow.unmetText}; error: {workflow.error}"
  - end: {}
""",
    "SendTeamNotice": """
name: SendTeamNotice
title: Send a notice to the team
tag: office
description: Email a notice to the team, once you approve it.
examples: ["email the team that the office is closed on Friday"]
main:
  - prompt: {name: chat, user: "{sys.query}"}
  - action:
      kind: email
      payload: {to: "team@example.test", subject: Notice, body: "{sys.query}"}
  - var: {name: conv.notice, value: "{action.actionId}"}
  - output: "Action {action.actionId} is {action.status}."
  - if:
      when: {exists: sys.inputs.fail}
      then:
        - fail: {message: "The rest of the turn failed."}
  - end: {}
""",
    "PostToCrm": """
name: PostToCrm
title: Log a call in the CRM
tag: sales
description: Log a customer call in the CRM right away.
examples: ["log my call with Hoffmann Logistics in the CRM"]
main:
  - prompt: {name: chat, user: "{sys.query}"}
  - action:
      kind: connector
      payload: {connector: crm, operation: logCall, note: "{sys.query}"}
      approval: false
  - output: "Logged: {action.status}."
  - end: {}
""",
}


def write_workflow_account(folder: Path) -> Path:
    """The agent files of ``AGENTS`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in AGENTS.items():
        (folder / f"{name}.yaml").write_text(text.lstrip(), encoding="utf-8")
    return folder
