"""The command line's --url: a warehouse connection from a SQLAlchemy URL (postgresql+psycopg2://...,
mysql+pymysql://..., snowflake://..., bigquery://project, trino://..., databricks://...) or a Spark
Connect address (sc://host:port), and the rule that no password in one is ever shown."""
from __future__ import annotations

import re
from contextlib import contextmanager

from .errors import SourceError

#: user:password@ in a URL (the password group is what is hidden)
_CREDENTIALS = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^/:@\s]*:)(?P<password>[^@\s]*)(?P<tail>@)")
#: a password given as a URL's query parameter (password=, pwd=, token=, access_token=)
_QUERY_SECRET = re.compile(r"(?P<head>[?&;](?:password|pwd|token|access_token)=)(?P<password>[^&\s]*)", re.I)


def hide_passwords(text: str) -> str:
    """`text` with the password of each URL in it (and its password= or token= parameter) as ***."""
    text = _CREDENTIALS.sub(lambda m: f"{m['head']}***{m['tail']}", text)
    return _QUERY_SECRET.sub(lambda m: f"{m['head']}***", text)


@contextmanager
def opened(url: str):
    """The connection `url` names, for one command: a SQLAlchemy Engine (its pool disposed of after)
    or a Spark Connect session. A refused login or an unreachable host is a SourceError of one line,
    without the password."""
    if url.startswith("sc://"):
        with _spark_connect(url) as session:
            yield session
        return
    try:
        import sqlalchemy
    except ImportError:
        raise SourceError("--url needs SQLAlchemy and the warehouse's driver: pip install 'sqlmetrics[sqlalchemy]' "
                          "and, e.g., 'sqlmetrics[mysql]'") from None
    try:
        engine = sqlalchemy.create_engine(url)
    except Exception as e:  # a malformed URL, or no such dialect or driver installed
        raise SourceError(f"--url {hide_passwords(url)!r} cannot be used: {_reason(e)}") from None
    try:
        try:
            with engine.connect():  # a refused login or an unreachable host, said before any metric
                pass
        except Exception as e:
            raise SourceError(f"cannot connect to --url {hide_passwords(url)!r}: {_reason(e)}") from None
        yield engine
    finally:
        engine.dispose()


@contextmanager
def _spark_connect(url: str):
    try:
        from pyspark.sql import SparkSession
        session = SparkSession.builder.remote(url).getOrCreate()
    except ImportError:
        raise SourceError("--url sc://... needs Spark Connect's client: pip install 'pyspark[connect]'") from None
    except Exception as e:
        raise SourceError(f"cannot connect to Spark Connect at --url {hide_passwords(url)!r}: {_reason(e)}") from None
    try:
        yield session
    finally:
        session.stop()


def _reason(error: Exception) -> str:
    """The driver's first line of `error`, without SQLAlchemy's background link or any password."""
    error = getattr(error, "orig", None) or error  # the driver's own error, under SQLAlchemy's
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    return hide_passwords(lines[0] if lines else type(error).__name__)
