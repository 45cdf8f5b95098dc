"""What sqlmetrics must know of a warehouse's Python driver beyond PEP 249 (DB-API 2.0), in one place:
which dialect its connections speak, how its cursors name a column's type, whether a connection is
inside a transaction, whether the driver opens one itself before the next statement, and how a running
statement is cancelled (Ctrl-C, ``interrupts``).

PEP 249 leaves all five to the driver. A class here answers them for a family of drivers, found by
the module of the connection's class (``of(con)``); an unknown driver is used when the caller names
its dialect, with the answers of the base class: type codes as names, transactions unknown (its
statements then run as they come, each a read-only SELECT). What differs between dialects (the
statements that open a read-only transaction, type names' classes) is in ``dialects.py``.
"""
from __future__ import annotations

#: the MySQL protocol's column type codes (every MySQL and MariaDB driver reports these), as MySQL names the types
_MYSQL_TYPES = {0: "DECIMAL", 1: "TINYINT", 2: "SMALLINT", 3: "INT", 4: "FLOAT", 5: "DOUBLE", 6: "NULL",
                7: "TIMESTAMP", 8: "BIGINT", 9: "MEDIUMINT", 10: "DATE", 11: "TIME", 12: "DATETIME", 13: "YEAR",
                15: "VARCHAR", 16: "BIT", 245: "JSON", 246: "DECIMAL", 247: "ENUM", 248: "SET", 249: "BLOB",
                250: "BLOB", 251: "BLOB", 252: "BLOB", 253: "VARCHAR", 254: "CHAR", 255: "GEOMETRY"}
#: snowflake.connector's type codes (its constants.FIELD_TYPES, by position)
_SNOWFLAKE_TYPES = ("NUMBER", "FLOAT", "TEXT", "DATE", "TIMESTAMP", "VARIANT", "TIMESTAMP_LTZ", "TIMESTAMP_TZ",
                    "TIMESTAMP_NTZ", "OBJECT", "ARRAY", "BINARY", "TIME", "BOOLEAN")


class Driver:
    """A DB-API driver sqlmetrics knows nothing particular of: its connections speak `dialect` (None:
    the caller names it, dialect=); `name` is how messages name it."""

    #: its cursors' type codes are PostgreSQL type OIDs, named by the catalogue (pg_type)
    type_oids = False

    def __init__(self, dialect: str | None = None, name: str = "DB-API"):
        self.dialect, self.name = dialect, name

    def type_name(self, type_code) -> str:
        """The type name of a cursor description's type code."""
        return str(type_code)

    def transaction(self, con) -> str | None:
        """'idle', 'open' (the caller's transaction, or the driver's implicit one, is open), 'failed',
        'pending' (the driver opens one on its own before a statement, and cannot tell whether it has);
        None where the driver cannot tell."""
        return None

    def begins_implicitly(self, con) -> bool:
        """Whether the driver sends a BEGIN of its own before the next statement (a PostgreSQL driver
        out of autocommit): that statement then runs as the first of a transaction already open."""
        return False

    def autocommit(self, con) -> bool | None:
        """Whether the connection commits each statement (None: the driver cannot tell)."""
        value = getattr(con, "autocommit", None)
        return value if isinstance(value, bool) else None

    def server_version(self, con) -> str | None:
        """The server's version string as the driver holds it from connecting (no round trip), or None."""
        return None

    #: one execute() may hold several statements (';'-separated, no parameters): the statements that
    #: open a call's span then cost one round trip
    multiple_statements = False
    #: after a failed statement, the driver still sends the ROLLBACK TO SAVEPOINT that undoes it (ADBC's
    #: PostgreSQL driver refuses every statement until the whole transaction is rolled back)
    savepoint_after_error = True

    def canceller(self, con):
        """What cancels the statement running on `con`, called from another thread, by the driver's own
        means: the server ends the statement with an error, which the driver reads whole, and the
        connection goes on in the state the statement found it (its transaction still open). None where
        sqlmetrics knows no such means: Ctrl-C then reaches the driver as it would without sqlmetrics."""
        return None

    #: in the main thread the driver's calls take SIGINT themselves (``interrupts`` then runs them in
    #: a thread of their own)
    takes_sigint = False


class PostgresProtocol(Driver):
    """A driver of PostgreSQL's protocol: type OIDs; unless in autocommit it sends BEGIN before a
    statement itself."""

    type_oids = True

    def begins_implicitly(self, con):
        return not con.autocommit


class Psycopg2(PostgresProtocol):
    """psycopg2, which tells its connection's transaction state."""

    multiple_statements = True

    def transaction(self, con):
        # psycopg2.extensions.TRANSACTION_STATUS_*: IDLE 0, ACTIVE 1, INTRANS 2, INERROR 3, UNKNOWN 4
        return {0: "idle", 2: "open", 3: "failed"}.get(con.info.transaction_status)

    def canceller(self, con):
        return con.cancel  # a cancel request on a connection of its own (libpq's PQcancel), thread-safe


class Psycopg(Driver):
    """psycopg 3, whose connections have an engine of their own (engine.PostgresEngine): how it cancels.
    On a KeyboardInterrupt in its own wait psycopg cancels too, but only in the main thread, and where
    Python raises the KeyboardInterrupt there, which may be outside that wait."""

    def canceller(self, con):
        return con.cancel


class SQLite3(Driver):
    """Python's sqlite3, whose connections have an engine of their own (engine.SQLiteEngine): how it
    cancels. interrupt() may be called from any thread, even on a connection bound to its own."""

    def canceller(self, con):
        return con.interrupt


class MySQLProtocol(Driver):
    """PyMySQL, mysqlclient (MySQLdb), mysql-connector and MariaDB Connector/Python: the MySQL
    protocol's type codes; the server's version from connecting (MariaDB's or MySQL's)."""

    def type_name(self, type_code):
        return _MYSQL_TYPES.get(type_code, str(type_code))

    def transaction(self, con):
        if isinstance(getattr(con, "in_transaction", None), bool):  # mysql-connector, MariaDB Connector
            return "open" if con.in_transaction else "idle"
        status = getattr(con, "server_status", None)  # PyMySQL: the server's SERVER_STATUS_IN_TRANS flag
        return None if status is None else "open" if status & 1 else "idle"

    def autocommit(self, con):
        if callable(getattr(con, "get_autocommit", None)):  # PyMySQL, mysqlclient: from the server's status
            return bool(con.get_autocommit())
        return super().autocommit(con)  # mysql-connector, MariaDB Connector: a property

    def server_version(self, con):
        # PyMySQL, mysqlclient, mysql-connector: get_server_info(); MariaDB Connector: server_info
        info = getattr(con, "get_server_info", None)
        version = info() if callable(info) else getattr(con, "server_info", None)
        return version if isinstance(version, str) else None


class PyMySQL(MySQLProtocol):
    """PyMySQL, which cancels as MySQL does: KILL QUERY, sent on a second connection (the first is busy
    with the statement) opened with the first one's parameters. A user may kill its own sessions'
    statements without any privilege. Had Ctrl-C raised KeyboardInterrupt inside PyMySQL, it would leave
    the connection in the middle of the server's answer, dead (InterfaceError(0, '') on its next use)."""

    def canceller(self, con):
        return lambda: _kill_query(con)


def _kill_query(con) -> None:
    """KILL QUERY for PyMySQL's connection `con`: its statement ends with error 1317, its transaction kept."""
    import pymysql
    # TLS where the first connection required it (PyMySQL 1.2 keeps `ssl` True for its preferred mode too)
    required = getattr(con, "_ssl_required", con.ssl)
    killer = pymysql.connect(host=con.host, port=con.port, user=con.user, password=con.password,
                             unix_socket=con.unix_socket, bind_address=con.bind_address,
                             server_public_key=con.server_public_key, ssl=con.ctx if required else None,
                             connect_timeout=5)
    try:
        with killer.cursor() as cursor:
            cursor.execute(f"KILL QUERY {int(con.thread_id())}")
    finally:
        killer.close()


class Snowflake(Driver):
    """snowflake.connector, and fakesnow, its emulator on DuckDB (the same API and type codes)."""

    def type_name(self, type_code):
        return _SNOWFLAKE_TYPES[type_code] if isinstance(type_code, int) and type_code < len(_SNOWFLAKE_TYPES) \
            else str(type_code)


class PyHive(Driver):
    """PyHive's Spark Thrift server connections: Thrift's type names."""

    def type_name(self, type_code):
        return str(type_code).removesuffix("_TYPE").lower()  # Thrift's DOUBLE_TYPE, INT_TYPE, ...


class ADBC(Driver):
    """An ADBC connection (adbc_driver_manager.dbapi): types as Arrow types; the dialect by its driver."""

    def type_name(self, type_code):
        import pyarrow as pa
        if pa.types.is_floating(type_code):
            return "DOUBLE"
        if pa.types.is_integer(type_code):
            return "BIGINT"
        if pa.types.is_decimal(type_code):
            return "DECIMAL"
        return "BOOLEAN" if pa.types.is_boolean(type_code) else str(type_code).upper()

    def __init__(self, dialect: str | None, savepoint_after_error: bool = True):
        super().__init__(dialect, "ADBC")
        self.savepoint_after_error = savepoint_after_error

    def transaction(self, con):
        # Out of autocommit, ADBC begins a transaction before the first statement after connecting,
        # committing or rolling back: whether one is open cannot be asked of it ("pending": the
        # engine asks the server whether it holds uncommitted work)
        return "idle" if self.autocommit(con) else "pending"

    def begins_implicitly(self, con):
        return not self.autocommit(con)

    def autocommit(self, con):
        return con.adbc_connection.get_option("adbc.connection.autocommit") == "true"

    def canceller(self, con):
        return con.adbc_connection.cancel  # AdbcConnectionCancel: the running statement's too

    # in the main thread its driver manager cancels on SIGINT itself, then raises the driver's error for a
    # cancelled statement, the same as a statement timeout's (checked with adbc-driver-manager 1.x)
    takes_sigint = True


#: a connection class's top-level module (or its two first parts) -> its driver
_BY_MODULE = {
    "psycopg2": Psycopg2("postgres", "psycopg2"),
    "redshift_connector": PostgresProtocol("redshift", "redshift_connector"),
    "pymysql": PyMySQL("mysql", "PyMySQL"),
    "MySQLdb": MySQLProtocol("mysql", "mysqlclient"),
    "mysql.connector": MySQLProtocol("mysql", "mysql-connector"),
    "mariadb": MySQLProtocol("mysql", "MariaDB Connector"),
    "snowflake.connector": Snowflake("snowflake", "snowflake.connector"),
    "fakesnow": Snowflake("snowflake", "fakesnow"),
    "google.cloud": Driver("bigquery", "google.cloud.bigquery.dbapi"),
    "trino": Driver("trino", "trino.dbapi"),
    "databricks.sql": Driver("databricks", "databricks-sql-connector"),
    "clickhouse_connect": Driver("clickhouse", "clickhouse_connect"),
    "pyhive": PyHive("spark", "PyHive"),
}
#: ADBC drivers' modules -> their names (adbc_get_info's driver_name)
_ADBC_MODULES = {"adbc_driver_postgresql": "ADBC PostgreSQL Driver", "adbc_driver_sqlite": "ADBC SQLite Driver",
                 "adbc_driver_snowflake": "ADBC Snowflake Driver", "adbc_driver_bigquery": "ADBC BigQuery Driver"}
#: ADBC drivers' names (adbc_get_info's driver_name) -> their dialect, for a connection of the driver manager
_ADBC_NAMES = {"ADBC PostgreSQL Driver": "postgres", "ADBC SQLite Driver": "sqlite",
               "ADBC Snowflake Driver": "snowflake", "ADBC BigQuery Driver": "bigquery"}


def of(con) -> Driver | None:
    """The driver of a DB-API connection object, or None where it is not one sqlmetrics knows (the
    caller then names its dialect)."""
    module = type(con).__module__
    top, _, rest = module.partition(".")
    if top in _ADBC_MODULES or top == "adbc_driver_manager":
        name = _ADBC_MODULES.get(top) or str(con.adbc_get_info().get("driver_name", ""))
        # the PostgreSQL driver answers every statement after a failed one with "the connection is
        # in an error state; first rollback" (checked with adbc-driver-postgresql 1.x)
        return ADBC(_ADBC_NAMES.get(name), savepoint_after_error=name != "ADBC PostgreSQL Driver")
    return _BY_MODULE.get(f"{top}.{rest.partition('.')[0]}") or _BY_MODULE.get(top)


def is_dbapi(con) -> bool:
    """A PEP 249 connection: it makes cursors, and commits and rolls back."""
    return all(callable(getattr(con, attr, None)) for attr in ("cursor", "commit", "rollback"))
