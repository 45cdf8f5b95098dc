"""No secret of a --url is ever shown: its password (whatever the URL's form: a user with an @, a raw
@ or space in the password, percent-encoded), the value of each parameter whose name says it is one
(pass, pwd, secret, token, key, credential), and a URL that does not parse, never echoed. The real
command line against a refused login (the tests' MariaDB, a wrong password) and a host that cannot be
reached; the redaction itself on the URL forms of each warehouse, and on text that quotes them.
"""
import subprocess
import sys
from urllib.parse import quote, quote_plus, unquote, urlencode

import pytest
from sqlalchemy.engine import make_url

from conftest import MYSQL_URL, connect_mysql
from sqlmetrics.errors import SourceError
from sqlmetrics.urls import hide_secrets, is_secret, opened, secrets

_MARIADB = make_url(MYSQL_URL)
#: user, host/database and query of a login the tests' MariaDB refuses (the password is wrong), and
#: of a host that cannot be reached
PLACES = {"refused login": (_MARIADB.username, f"{_MARIADB.host}/{_MARIADB.database}", urlencode(_MARIADB.query)),
          "unreachable host": ("sqlmetrics", "no-such-host.invalid/sqlmetrics", "")}

#: each form of a secret in a --url: the URL ({user}, {at}: host/database, {query}: the place's own
#: parameters) and the texts that must never be shown (each also checked percent-encoded and decoded)
FORMS = {
    "user with an @ (Azure's user@server)": ("mysql+pymysql://{user}@server:s3cr3t-pw@{at}?{query}", ["s3cr3t-pw"]),
    "raw space in the password": ("mysql+pymysql://{user}:s3cr3t pa55@{at}?{query}", ["s3cr3t", "pa55"]),
    "raw @ in the password": ("mysql+pymysql://{user}:s3cr3t@pa55@{at}?{query}", ["s3cr3t", "pa55"]),
    "percent-encoded password": ("mysql+pymysql://{user}:s3cr%33t%2Fpa55@{at}?{query}", ["s3cr3t/pa55", "s3cr%33t"]),
    "?passwd=": ("mysql+pymysql://{user}@{at}?{query}&passwd=s3cr3t-pw", ["s3cr3t-pw"]),
    "?%70assword=": ("mysql+pymysql://{user}@{at}?{query}&%70assword=s3cr3t-pw", ["s3cr3t-pw"]),
    "?sslpassword=": ("mysql+pymysql://{user}@{at}?{query}&sslpassword=s3cr3t-pw", ["s3cr3t-pw"]),
    "?token=": ("mysql+pymysql://{user}@{at}?{query}&token=s3cr3t-pw", ["s3cr3t-pw"]),
    "?private_key=": ("mysql+pymysql://{user}@{at}?{query}&private_key=s3cr3t-pw", ["s3cr3t-pw"]),
    "no :// (does not parse)": ("mysql+pymysql:/{user}:s3cr3t-pw@{at}?{query}", ["s3cr3t-pw"]),
    "raw @ then a colon (a port that is no number)": ("mysql+pymysql://{user}:s3cr3t@pa55:w0rd@{at}?{query}",
                                                      ["s3cr3t", "pa55", "w0rd"]),
}


@pytest.fixture(scope="module")
def mariadb_up():
    """The tests' MariaDB is up (or the skip that says how to give it; a failure in CI): its refusal is
    what a refused login says."""
    connect_mysql().close()


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sqlmetrics", *args], capture_output=True, text=True, timeout=300)


def _shown(done: subprocess.CompletedProcess, words: list[str]) -> list[str]:
    """Which of `words` (as written, percent-encoded or percent-decoded) the command printed."""
    printed = done.stdout + done.stderr
    return [form for word in words for form in {word, quote(word, safe=""), quote_plus(word), unquote(word)}
            if form in printed]


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_url_that_cannot_connect_shows_no_secret(form, place, request):
    if place == "refused login":
        request.getfixturevalue("mariadb_up")
    url, words = FORMS[form]
    user, at, query = PLACES[place]
    done = _cli("compute", "auc", "--url", url.format(user=user, at=at, query=query), "preds",
                "--label", "y", "--score", "s")
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert not _shown(done, words), done.stderr
    assert done.stderr.startswith("sqlmetrics: error: cannot connect to --url '") or "not shown" in done.stderr


@pytest.mark.parametrize("url, words", [
    ("sc://:15002/;token=s3cr3t-pw", ["s3cr3t-pw"]),  # no host: Spark's client quotes the URL back
    ("sc://no-such-host.invalid:15002/;user_id=me;token=s3cr3t pa55=", ["s3cr3t", "pa55"]),  # it quotes the pair
])
def test_a_spark_connect_token_is_never_shown(url, words):
    done = _cli("compute", "auc", "--url", url, "preds", "--label", "y", "--score", "s")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert not _shown(done, words), done.stderr


@pytest.mark.parametrize("form", sorted(set(FORMS) - {"no :// (does not parse)"}))
def test_no_secret_in_a_usage_error(form):
    """An option misspelt: argparse quotes its value, a URL sqlmetrics never read as one."""
    url, words = FORMS[form]
    done = _cli("compute", "auc", "x.parquet", "--label", "y", "--score", "s",
                "--urll", url.format(user="me", at="h/db", query="sslmode=require"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert not _shown(done, words), done.stderr


@pytest.mark.parametrize("url, module, advice", [
    # SQLAlchemy 2.1's postgresql:// means psycopg 3: here as if it were not installed
    ("postgresql://me:s3cr3t-pw@h/db", "psycopg", "pip install 'sqlmetrics[postgres]', or name a driver you have "
                                                  "in the URL, e.g. postgresql+psycopg2:// (psycopg2)"),
    ("mysql://me:s3cr3t-pw@h/db", "MySQLdb", "e.g. mysql+pymysql:// (pip install 'sqlmetrics[mysql]')"),
])
def test_a_driver_not_installed_says_what_to_install_or_name(url, module, advice, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)  # its import fails as a missing module's does
    with pytest.raises(SourceError) as raised:
        with opened(url):
            pass
    assert f"its driver (the Python module {module!r}) is not installed" in str(raised.value)
    assert advice in str(raised.value) and "s3cr3t-pw" not in str(raised.value)


# -- the redaction itself ----------------------------------------------------------------------------

@pytest.mark.parametrize("url, shown", [
    ("postgresql+psycopg2://me:s3cr3t@db.example.com:5432/analytics",
     "postgresql+psycopg2://me:***@db.example.com:5432/analytics"),
    ("postgresql+psycopg2://me:s3%40cr3t@[::1]:5432/analytics?sslmode=require&sslpassword=k3y-pw",
     "postgresql+psycopg2://me:***@[::1]:5432/analytics?sslmode=require&sslpassword=***"),
    ("postgresql+psycopg2://me@server:s3cr3t@server.postgres.database.azure.com/analytics",
     "postgresql+psycopg2://me@server:***@server.postgres.database.azure.com/analytics"),
    ("mysql+pymysql://me:s3 cr3t@localhost/analytics", "mysql+pymysql://me:***@localhost/analytics"),
    ("mysql+pymysql://me:s3@cr3t@localhost:3306/analytics?charset=utf8mb4",
     "mysql+pymysql://me:***@localhost:3306/analytics?charset=utf8mb4"),
    ("mysql+pymysql://me@localhost/analytics?passwd=s3cr3t&charset=utf8mb4",
     "mysql+pymysql://me@localhost/analytics?passwd=***&charset=utf8mb4"),
    ("mysql+pymysql://me@localhost/analytics?%70assword=s3cr3t", "mysql+pymysql://me@localhost/analytics?%70assword=***"),
    ("mysql+pymysql://me@localhost/analytics?PASSWORD=s3cr3t&password=pa55",
     "mysql+pymysql://me@localhost/analytics?PASSWORD=***&password=***"),
    ("snowflake://me@acme-eu1/analytics/public?warehouse=wh&private_key_file=/keys/rsa.p8&private_key_file_pwd=s3cr3t",
     "snowflake://me@acme-eu1/analytics/public?warehouse=wh&private_key_file=***&private_key_file_pwd=***"),
    ("snowflake://me@acme-eu1/analytics?authenticator=oauth&token=s3cr3t",
     "snowflake://me@acme-eu1/analytics?authenticator=oauth&token=***"),
    # credentials_base64 is a service account's whole key file: a secret by its name's "credential"
    ("bigquery://my-project/analytics?credentials_base64=eyJ0eXBlIjoic2VydmljZV9hY2NvdW50In0=",
     "bigquery://my-project/analytics?credentials_base64=***"),
    ("trino://me@trino.example.com:443/hive?access_token=eyJhbGciOi.s3cr3t", "trino://me@trino.example.com:443/hive?access_token=***"),
    ("databricks://token:dapi0123456789abcdef@dbc-1.cloud.databricks.com?http_path=/sql/1.0/warehouses/abc",
     "databricks://token:***@dbc-1.cloud.databricks.com?http_path=/sql/1.0/warehouses/abc"),
    ("redshift+redshift_connector://me@cluster.example.com:5439/dev?iam=true&secret_access_key=s3cr3t",
     "redshift+redshift_connector://me@cluster.example.com:5439/dev?iam=true&secret_access_key=***"),
    ("mssql+pyodbc:///?odbc_connect=DRIVER%3D%7BODBC+Driver+18%7D%3BSERVER%3Dsql%3BPWD%3Ds3cr3t",
     "mssql+pyodbc:///?odbc_connect=DRIVER%3D%7BODBC+Driver+18%7D%3BSERVER%3Dsql%3BPWD%3D***"),
    ("sc://spark.example.com:15002/;use_ssl=true;token=s3cr3t;user_id=me",
     "sc://spark.example.com:15002/;use_ssl=true;token=***;user_id=me"),
    # nothing secret: as given
    ("postgresql+psycopg2://me@localhost:5432/analytics?sslmode=require", "postgresql+psycopg2://me@localhost:5432/analytics?sslmode=require"),
    ("duckdb:///:memory:", "duckdb:///:memory:"),
    ("sc://localhost:15002", "sc://localhost:15002"),
])
def test_a_url_is_shown_with_its_secrets_hidden(url, shown):
    assert hide_secrets(url, secrets(url)) == shown


@pytest.mark.parametrize("url", ["mysql+pymysql:/me:s3cr3t@localhost/db", "mysql+pymysql//me:s3cr3t@localhost/db",
                                 "mysql+pymysql://me:s3cr3t@p:w0rd@localhost/db", "me:s3cr3t@localhost", ""])
def test_a_url_that_does_not_parse_has_no_secrets_to_say(url):
    assert secrets(url) is None


@pytest.mark.parametrize("url, text, shown", [
    # a driver quotes the password as it received it, or percent-encoded
    ("mysql+pymysql://me:s3cr3t%2Fpw@h/db", "password 's3cr3t/pw' refused", "password '***' refused"),
    ("mysql+pymysql://me:s3cr3t%2Fpw@h/db", "dsn user=me password=s3cr3t%2Fpw host=h", "dsn user=me password=*** host=h"),
    ("mysql+pymysql://me@h/db?passwd=a+b", "login 'a b' and 'a+b' and 'a%20b'", "login '***' and '***' and '***'"),
    # the rest of a password after a raw @, which SQLAlchemy took for the host's
    ("mysql+pymysql://me:s3cr3t@pa55@no-such-host.invalid/db",
     "Can't connect to MySQL server on 'pa55@no-such-host.invalid'", "Can't connect to MySQL server on '***@no-such-host.invalid'"),
    ("sc://h:15002/;token=s3cr3t=pw", "Parameter 'token=s3cr3t=pw' should be", "Parameter 'token=***' should be"),
    ("sc://h:15002/;token=s3cr%33t-pw", "token s3cr3t-pw refused", "token *** refused"),  # decoded by Spark's client
])
def test_a_secret_is_hidden_wherever_a_message_quotes_it(url, text, shown):
    assert hide_secrets(text, secrets(url)) == shown


@pytest.mark.parametrize("text, shown", [
    ("unrecognized arguments: --urll mysql://me@server:s3cr3t@h/db", "unrecognized arguments: --urll mysql://me@server:***@h/db"),
    ("unrecognized arguments: --urll mysql://me:s3cr3t pa55@h:3306/db --x", "unrecognized arguments: --urll mysql://me:***@h:3306/db --x"),
    ("unrecognized arguments: --urll mysql://me:s3@cr3t@h", "unrecognized arguments: --urll mysql://me:***@h"),
    ("--urll 'mysql://me:s3cr3t@[::1]:3306/db' x", "--urll 'mysql://me:***@[::1]:3306/db' x"),
    ("--urll mysql://me:s3@cr3t:w0rd@h/db", "--urll mysql://me:***@h/db"),
    ("--urll mysql://me@h/db?a=1&passwd=s3cr3t&b=2", "--urll mysql://me@h/db?a=1&passwd=***&b=2"),
    ("--urll mysql://me@h/db?%70assword=s3cr3t", "--urll mysql://me@h/db?%70assword=***"),
    ("--urll 'mysql://me@h/db?sslpassword=s3cr3t'", "--urll 'mysql://me@h/db?sslpassword=***'"),
    ("--urll sc://h:15002/;token=s3cr3t;user_id=me", "--urll sc://h:15002/;token=***;user_id=me"),
    # no secret: left as it is
    ("--url 'mysql://h:3306/db': Access denied for user 'me'@'localhost' (using password: YES)",
     "--url 'mysql://h:3306/db': Access denied for user 'me'@'localhost' (using password: YES)"),
    ("--url 'postgresql://me@h:5432/db?sslmode=require': ask admin@example.com",
     "--url 'postgresql://me@h:5432/db?sslmode=require': ask admin@example.com"),
])
def test_a_url_in_any_text_has_its_secrets_hidden(text, shown):
    """Text quoting a URL sqlmetrics did not parse (argparse's usage error): what a scan of it finds."""
    assert hide_secrets(text, {}) == shown


@pytest.mark.parametrize("name", ["password", "PassWord", "%70assword", "passwd", "sslpassword", "passcode", "pwd",
                                  "private_key_file_pwd", "client_secret", "token", "access_token", "private_key",
                                  "api%5Fkey", "credentials_base64", "credentials_path"])
def test_a_parameter_named_as_a_secret_is_one(name):
    assert is_secret(name)


@pytest.mark.parametrize("name", ["user", "host", "sslmode", "charset", "unix_socket", "warehouse", "http_path",
                                  "authenticator", "user_id", "use_ssl"])
def test_other_parameters_are_not(name):
    assert not is_secret(name)


def test_the_secrets_of_a_url_opened_are_hidden_in_every_later_message():
    """A driver's error or a warning in the middle of a metric, far from the URL, may quote them."""
    with pytest.raises(SourceError):
        with opened("mysql+pymysql://me:s3cr3t%2Fpw@no-such-host.invalid/db?access_token=t0k3n"):
            pass
    assert hide_secrets("query failed for s3cr3t/pw (t0k3n)") == "query failed for *** (***)"
