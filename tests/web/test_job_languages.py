"""A job's refusal reads in the reader's language (issue 19): ``JobFailed`` raised with a
``Message`` stores its English as the error and its template and values beside it, and the
manager's page says it through the catalogue (``manager_ways.job_views.job_view``)."""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask_babel import force_locale

from trainer.engine.messages import N_, Message
from trainer.extensions import db
from trainer.models import Job
from trainer.services import jobs
from trainer.services.jobs import JobContext, JobFailed, Runner
from trainer.web.manager.ways import job_views
from web.test_feedback_languages import fake_spanish  # noqa: F401  (the fixture)

CHANGED = N_("The house way %(name)s changed while this job waited; start it again.")


def refuse_in_words(ctx: JobContext) -> None:
    raise JobFailed(Message(CHANGED, name="trump-plaza", deals=1000))


@pytest.fixture(autouse=True)
def kind() -> Any:
    jobs.register("refuse_in_words", refuse_in_words)
    yield
    jobs.unregister("refuse_in_words")


def failed_job(app: Flask) -> int:
    runner = Runner(str(app.config["SQLALCHEMY_DATABASE_URI"]), mode="inline", beat_seconds=0.05)
    with app.app_context():
        return jobs.submit("refuse_in_words", "refuse-words:1", {}, None, runner=runner).id


@pytest.mark.usefixtures("fake_spanish")
def test_a_jobs_refusal_is_stored_in_english_and_read_in_the_readers_language(app: Flask) -> None:
    job_id = failed_job(app)
    with app.test_request_context():
        job = db.session.get(Job, job_id)
        assert job is not None and job.status == jobs.FAILED
        assert job.error == ("The house way trump-plaza changed while this job waited; "
                             "start it again.")
        assert jobs.state(job).said == Message(CHANGED, name="trump-plaza", deals=1000)
        with force_locale("es"):
            es = job_views.job_view(job)
        with force_locale("en"):
            en = job_views.job_view(job)
    assert es is not None and en is not None
    assert es["error"] == ("ES[The house way trump-plaza changed while this job waited; "
                           "start it again.]")
    assert en["error"] == job.error


def test_a_message_survives_its_json_with_nested_messages_and_numbers() -> None:
    said = Message(N_("This house way cannot be read: %(problem)s"),
                   problem=Message(N_("Section %(number)s"), number=3))
    stored = jobs.said_json(said)
    assert stored == {"template": "This house way cannot be read: %(problem)s",
                      "params": {"problem": {"template": "Section %(number)s",
                                             "params": {"number": 3}}}}
    assert jobs.said_message(stored) == said
    assert jobs.said_json("plain words") is None and jobs.said_message(None) is None
