"""The command line's --url: a warehouse connection from a SQLAlchemy URL (postgresql+psycopg2://...,
mysql+pymysql://..., snowflake://..., bigquery://project, trino://..., databricks://...) or a Spark
Connect address (sc://host:port), and the rule that no secret in one is ever shown: its password, and
the value of each parameter named as a secret."""
from __future__ import annotations

import re
from contextlib import contextmanager
from urllib.parse import quote, quote_plus, unquote, unquote_plus

from .errors import SourceError

#: words in the name of a parameter whose value is a secret, once percent-decoded and case-folded:
#: password, passwd, sslpassword, passcode, pwd, private_key_file_pwd, client_secret, token,
#: access_token, private_key, and BigQuery's credentials_base64 (a service account's key itself)
_SECRET_WORDS = ("pass", "pwd", "secret", "token", "key", "credential")
#: a URL's password in any text: after scheme://user: (a user may hold an @, as Azure's user@server
#: does), up to the first @ that a whole host follows, so a raw @ or space in the password is in it
_CREDENTIALS = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://[^:/\s]*:)(?P<password>[^/\n]*?)"
                          r"(?=@(?:\[[^\]\s]*\]|[^\s@/?:'\"\[]+)(?::\d+)?(?:[\s/?'\"]|$))")
#: a parameter in any text: a URL's ?name=value or &name=value, Spark Connect's /;name=value
_PARAMETER = re.compile(r"(?P<head>[?&;](?P<name>[^=&;?#\s/]+)=)(?P<value>[^&;#\s'\"]*)")

#: each secret of the URLs this process opened -> what is shown instead: a driver's error or a warning
#: printed far from the URL (in the middle of a metric) may quote them
_SECRETS: dict[str, str] = {}


def is_secret(name: str) -> bool:
    """Whether the parameter `name` (as written in a URL: percent-encoded or not) holds a secret."""
    return any(word in unquote_plus(name).casefold() for word in _SECRET_WORDS)


def hide_secrets(text: str, known: dict[str, str] = _SECRETS) -> str:
    """`text` with each `known` secret (by default, those of the URLs opened), and the password and
    secret parameters of any URL written in it, as ***."""
    if known:  # one pass, the longest first: a secret is hidden whole, never a part of it first
        text = re.sub("|".join(map(re.escape, sorted(known, key=len, reverse=True))), lambda m: known[m[0]], text)
    text = _CREDENTIALS.sub(lambda m: f"{m['head']}***", text)
    return _PARAMETER.sub(lambda m: f"{m['head']}***" if is_secret(m["name"]) else m[0], text)


def secrets(url: str) -> dict[str, str] | None:
    """Each secret of `url` (in each form a text may quote it: as the driver receives it and
    percent-encoded) -> what is shown instead; None if SQLAlchemy's make_url cannot parse `url`.
    Spark Connect's sc://host:port/;token=...;user_id=... is no SQLAlchemy URL: its parameters are
    read as its client reads them (and percent-decodes their values)."""
    found = {}
    if url.startswith("sc://"):
        values = _listed(url) + [unquote(value) for value in _listed(url)]
    else:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError
        try:
            parsed = make_url(url)
        except (ArgumentError, ValueError):  # no scheme://, or a port that is no number
            return None
        query = [(name, v) for name, value in parsed.query.items()
                 for v in ([value] if isinstance(value, str) else value)]
        # and a list in a parameter's value: pyodbc's odbc_connect=DRIVER=...;PWD=...
        values = [parsed.password] + [v for name, v in query if is_secret(name)] + [
            listed for _, v in query for listed in _listed(v)]
        if parsed.password is not None and "@" in (parsed.host or ""):
            # a raw @ in the password: SQLAlchemy ends it at the first @, and takes the rest for the host
            rest, host = parsed.host.rsplit("@", 1)
            values[0] = f"{parsed.password}@{rest}"
            found[parsed.host] = f"***@{host}"  # as a driver quotes the host it cannot reach
    for value in filter(None, values):
        found.update(dict.fromkeys({value, quote(value), quote(value, safe=""), quote_plus(value)}, "***"))
    return found


def _listed(text: str) -> list[str]:
    """The secret values of a list of name=value pairs separated by ; in `text`."""
    return [m["value"] for m in re.finditer(r"(?:^|;)(?P<name>[^=;]+)=(?P<value>[^;]*)", text) if is_secret(m["name"])]


@contextmanager
def opened(url: str):
    """The connection `url` names, for one command: a SQLAlchemy Engine (its pool disposed of after)
    or a Spark Connect session. A refused login or an unreachable host is a SourceError of one line,
    without the password; a URL that does not parse is never shown."""
    spark = url.startswith("sc://")
    if not spark:
        try:
            import sqlalchemy
        except ImportError:
            raise SourceError("--url needs SQLAlchemy and the warehouse's driver: pip install 'sqlmetrics[sqlalchemy]' "
                              "and, e.g., 'sqlmetrics[mysql]'") from None
    found = secrets(url)
    if found is None:
        raise SourceError("the URL given to --url (not shown: it does not parse as a URL) cannot be used: write it "
                          "as dialect+driver://user:password@host:port/database, an @ in the password as %40")
    _SECRETS.update(found)
    shown = f"--url {hide_secrets(url)!r}"
    if spark:
        with _spark_connect(url, shown) as session:
            yield session
        return
    try:
        engine = sqlalchemy.create_engine(url)
    except ModuleNotFoundError as e:  # the URL's driver, or its dialect's default driver, is not installed
        raise SourceError(f"{shown} cannot be used: {_missing_driver(url, e.name or str(e))}") from None
    except Exception as e:  # no such dialect
        raise SourceError(f"{shown} cannot be used: {_reason(e)}") from None
    try:
        try:
            with engine.connect():  # a refused login or an unreachable host, said before any metric
                pass
        except Exception as e:
            raise SourceError(f"cannot connect to {shown}: {_reason(e)}") from None
        yield engine
    finally:
        engine.dispose()


@contextmanager
def _spark_connect(url: str, shown: str):
    try:
        from pyspark.sql import SparkSession
        session = SparkSession.builder.remote(url).getOrCreate()
    except ImportError:
        raise SourceError("--url sc://... needs Spark Connect's client: pip install 'pyspark[connect]'") from None
    except Exception as e:
        raise SourceError(f"cannot connect to Spark Connect at {shown}: {_reason(e)}") from None
    try:
        yield session
    finally:
        session.stop()


#: the extra of sqlmetrics that installs a driver module, and a driver the URL can name instead of a
#: dialect's default (SQLAlchemy 2.1's postgresql:// means psycopg 3, mysql:// mysqlclient)
_DRIVER_EXTRAS = {"psycopg": "postgres", "pymysql": "mysql", "snowflake": "snowflake", "trino": "trino",
                  "databricks": "databricks", "redshift_connector": "redshift"}
_OTHER_DRIVERS = {"postgresql": "postgresql+psycopg2:// (psycopg2) or postgresql+psycopg:// (psycopg 3)",
                  "mysql": "mysql+pymysql:// (pip install 'sqlmetrics[mysql]')"}


def _missing_driver(url: str, module: str) -> str:
    """What to do when the driver `module` a URL needs is not installed: install it, or name another."""
    dialect = url.split("://", 1)[0].split("+", 1)[0]
    extra = _DRIVER_EXTRAS.get(module.split(".")[0])
    install = f"pip install 'sqlmetrics[{extra}]'" if extra else f"pip install the package of the module {module!r}"
    other = _OTHER_DRIVERS.get(dialect, f"{dialect}+DRIVER://")
    return (f"its driver (the Python module {module!r}) is not installed: {install}, or name a driver you have in "
            f"the URL, e.g. {other}")


def _reason(error: Exception) -> str:
    """The driver's first line of `error`, without SQLAlchemy's background link or any secret."""
    error = getattr(error, "orig", None) or error  # the driver's own error, under SQLAlchemy's
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    return hide_secrets(lines[0] if lines else type(error).__name__)
