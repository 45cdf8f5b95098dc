"""What the Python layer must know of each engine, in one place: a class per dialect, whose
attributes and methods answer the questions the input checks, the plans, the reading of queries
and table names, the sources and the connections ask (``Target.capabilities``, ``of(dialect)``).
No other module compares a dialect's name (tests/test_dispatch.py).

The SQL the templates write differently per engine is not here but in the dispatched macros of
``sql/`` (``<adapter>__<name>``): dbt renders the templates too, and knows only macros. Those are
looked up in dbt's order (the adapter's own, those of the adapters it is built on, then
``default__``): ``Capabilities.prefixes``, from the classes a dialect's class is built on, as
dbt-redshift is built on dbt-postgres and dbt-databricks on dbt-spark. A subclass answers as its
base unless it says otherwise.

A new engine declares a class here (its answers where they differ from the base's, which are
those of a warehouse that reads standard SQL) and, where its SQL differs, its macro spellings.

Predicates are DuckDB-syntax SQL (the templates' syntax: ``sqltext.transpile`` writes them for the
engine), or None where the column cannot hold such a value.
"""
from __future__ import annotations

import re

from .errors import SourceError

#: a name SQL could hold unquoted (as the user would write it in a query)
PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: an unquoted project or table name of a BigQuery table path, which may hold dashes (a dataset's may not):
#: https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical#table_names
_DASHED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*\Z")
#: type names, as engines and their drivers spell them (DuckDB, Trino, MySQL, Snowflake, BigQuery, ...)
_FLOATING = re.compile(r"(FLOAT\d*|DOUBLE( PRECISION)?|REAL)\Z")
_NUMERIC = re.compile(r"(U?(TINY|SMALL|MEDIUM|BIG|HUGE)?INT(EGER)?\d*( UNSIGNED)?|(BIG)?DECIMAL.*|(BIG)?NUMERIC.*|NUMBER.*)\Z")


class Capabilities:
    """A warehouse reading standard SQL: the answers every dialect has unless its class says otherwise."""

    #: the dialect's name: sqlglot's, and the type of dbt's adapter for it
    name = "default"
    #: how messages name the engine
    title = "SQL"
    #: the templates and the check queries are written in its syntax: its SQL is the text as
    #: rendered (no transpiling) and its own macro spellings go inline
    template_syntax = False
    #: it reads data files (Parquet, CSV, TREC runs and judgments) itself
    reads_files = False
    #: the input checks run as guards on each row of the metric's own query, failing it
    #: (helpers.sql invalid_value) on a value a check finds, so the input is read once: where a
    #: passing invalid_value is a typeless NULL that COALESCE with the column leaves the column as
    #: it was (Spark's raise_error()): a cluster then reads the input once instead of twice.
    #: Elsewhere the checks are screened cheaply by aggregates in the metric's own statement
    #: (checks.screen_flag): on DuckDB that costs less than a guard on each value (13 ms against
    #: 30 ms on 10M rows in memory, 35 against 43 ms from Parquet), and where a passing
    #: invalid_value is a failing cast (which passes as a number) a guard cannot leave the column
    #: as it was
    guards_rows = False
    #: how the metric's statement reads an input that its screen (checks.screen_flag) reads too: "cte"
    #: a CTE of the input's columns, which most engines compute once for every reference (Snowflake's);
    #: "materialized": one that says so, as the engines that would otherwise fold it into
    #: each reference need (PostgreSQL, SQLite); None: the input as it is, at each reference, where
    #: reading it twice costs less than copying it once (DuckDB's in-process data: 38 ms against 61 ms
    #: for AUC on 10M rows)
    input_once: str | None = "cte"
    #: the checks' screens ride in the metric's statement (api), which then names the input twice where
    #: input_once is None: not where a table the caller holds by LOCK TABLES may be named once per
    #: statement (MySQL), where they are a statement of their own first
    screens_in_statement = True
    #: a statement that fails aborts the transaction it ran in (PostgreSQL, DuckDB): the call's span is
    #: begun anew (Engine.renew) before a diagnostic query can run
    failure_aborts = False
    #: a column of any declared type keeps any value (text, bytes, infinities), and a boolean is a
    #: number like any other (2 or 0.5 would count as true)
    loose_types = False
    #: its exact numeric type has NaN and infinities
    special_numerics = False
    #: a seeded sample of whole blocks (TABLESAMPLE SYSTEM ... REPEATABLE) gives the same rows each run
    system_sample_repeats = True
    #: the plan of the AUC family is chosen from the data (plans.distinct_share, in its syntax):
    #: ranking the rows when the scores are mostly distinct
    plans_from_data = False
    #: the statement that opens a read-only transaction for a call, where the connection has none (the
    #: call ends it by ROLLBACK); None: the engine has no transactions a driver leaves to us
    begin_read_only: str | None = None
    #: the statements that make a transaction a driver has just opened of its own (psycopg2 out of
    #: autocommit) the call's read-only snapshot, as its first statements
    set_read_only: tuple[str, ...] = ()
    #: inside the caller's open transaction: the statements that open the call's span, read-only, and
    #: those that end it, leaving the transaction as it was; None: the call's SELECTs run in it as they are
    within_transaction: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    #: the finite double its SQL writes for +infinity (macro `infinity`), where it has no infinite
    #: double: results holding it (a curve's first threshold) hold +-inf
    infinity_stand_in: float | None = None
    #: a result's unquoted column names come back folded (Snowflake's upper case): they are read from
    #: the statement's SELECT list instead
    folds_result_names = False
    #: a WITH inside a CTE's query sees the names of the WITH around it
    nested_with = True
    #: the transaction's end where the engine's plain ROLLBACK may do more (MySQL's completion_type
    #: can make it open a new transaction, or close the connection)
    rollback = "ROLLBACK"
    #: a statement turning autocommit off for the call, where it must be off for the transaction to
    #: start without an explicit BEGIN, and the one turning it back on (MySQL: a START TRANSACTION
    #: would release the caller's LOCK TABLES), or None
    autocommit_off: tuple[str, str] | None = None

    # What a caller's session may have set that would change how the generated SQL reads or what it
    # returns, and how each engine keeps it from doing so (docs/safety.md lists them per engine):
    #: every sort key says ASC: a session can make a bare ORDER BY descending (DuckDB's default_order)
    explicit_ascending = False
    #: NOT's operand is in parentheses: a session can make NOT bind tighter than a comparison, as the
    #: statement is parsed (MySQL's HIGH_NOT_PRECEDENCE: NOT a = b is (NOT a) = b)
    parenthesized_not = False
    #: the character set a cast to text names, where the connection's would apply otherwise (MySQL's
    #: CAST(x AS CHAR) converts to character_set_connection: under latin1, every CJK id is '?')
    text_charset: str | None = None
    #: (setting, value as SQL) fixed for each statement: the engine's own scoping of one statement
    #: where it has one (pinned), else set at the call's start and restored at its end (session_pins)
    statement_settings: tuple[tuple[str, str], ...] = ()
    #: a query of the names of the functions the connection defines itself that its engine calls in
    #: place of the builtin of the same name (DuckDB's macros, SQLite's application functions): a
    #: statement calling one of those names is refused, as it would not compute what sqlmetrics wrote
    own_functions: str | None = None
    #: the search path every statement of a call resolves names in: the builtins' schema only, so
    #: that no function or operator of another schema can stand in for a builtin (PostgreSQL:
    #: CVE-2018-1058's pattern); the tables of the data are named with the schema the caller's own
    #: path finds them in (engine.Engine._found)
    builtin_path: str | None = None
    #: a query true when the transaction a driver keeps open on its own (Driver 'pending') holds
    #: uncommitted changes of the caller's; None where it cannot be asked
    uncommitted_work: str | None = None
    #: a statement keeps its intermediate results in memory, up to most of the machine's: sm.bootstrap
    #: runs the replicates that each read the rows in batches, a statement each, so that memory does
    #: not grow with n_boot (other engines spill to disk past their memory settings, or spread a
    #: statement over workers; on PostgreSQL a batch would also compile its long expressions anew)
    in_memory = False

    @classmethod
    def prefixes(cls) -> tuple[str, ...]:
        """Its macro spellings' prefixes, in dbt's adapter.dispatch order (before default__)."""
        return tuple(dict.fromkeys(c.name for c in cls.__mro__ if issubclass(c, Capabilities) and c is not Capabilities))

    def is_nan(self, column_sql: str, decimal: bool = False) -> str | None:
        """A predicate true for NaN, or None where the column cannot hold NaN. `decimal`: the column
        is of an exact number type (only where special_numerics can it hold NaN)."""
        return None if decimal else f"isnan({column_sql})"

    def nan_by_sums(self, column_sql: str) -> str | None:
        """An aggregate predicate true when a float column holds NaN, where the engine's optimizer may
        fold the test of each value away; None where each value is tested as it is."""
        return None

    def is_infinite(self, column_sql: str, infinity: str, decimal: bool = False) -> str | None:
        """A predicate true for +inf and -inf, or None where the column cannot hold them; `infinity`:
        the engine's (the dispatched macro `infinity`), `decimal` as for is_nan."""
        return f"ABS({column_sql}) = {infinity}"

    def not_a_number(self, column_sql: str) -> str | None:
        """A predicate true for a value that is not a number in a numeric column, where one can be there."""
        return None

    def row_hash(self, columns_sql: list[str]) -> str | None:
        """A 64-bit hash of a combination of values, where the engine has one whose distinct count is
        cheaper than grouping by the columns (checks.duplicates_screen); None elsewhere."""
        return None

    def is_condition(self, type_class: str) -> bool:
        """Whether a value of `type_class` is a condition's (true or false on a row)."""
        return type_class == "boolean"

    def exact_text(self, column_sql: str, type_name: str) -> str | None:
        """The key column `column_sql` (of type `type_name`, not a number) compared byte by byte, where a
        column's collation or the session's can make two different values equal ('u', 'U' and 'u '),
        or sort them otherwise than their bytes; None where equal text is the same text."""
        return None

    def pinned(self, sql: str, settings: tuple[tuple[str, str], ...]) -> str:
        """`sql` as sent, `settings` (of statement_settings) fixed for it by the engine's own
        per-statement scoping (where the engine has none, session_pins does it for the call)."""
        return sql

    def changed_settings(self) -> str | None:
        """A query of one row: the names of the statement_settings the session has changed (no row:
        the session skips rows of every result, and all must be pinned); None where every one is
        pinned anyway."""
        return None

    def session_pins(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The statements that set statement_settings for a call and those that restore the caller's
        values after it, where pinned cannot scope them to each statement; ((), ()) otherwise."""
        return (), ()

    def began_already(self, error: str) -> bool:
        """Whether `error`, of begin_read_only, says a transaction is open already (a driver may not
        know of one: the call then runs inside it)."""
        return False

    def call_start(self) -> str | None:
        """A query run as a call's transaction opens, where the call's settings are set there and what
        the caller's session had set must be known: one row of the caller's search path (its schemas
        in order, for builtin_path) and of what the session reads SQL text by (reading); None where
        the call needs neither."""
        return None

    def reading_query(self, pins: tuple[tuple[str, str], ...]) -> str | None:
        """A query of what the caller's session reads SQL text by (its answer for reading), as sent with
        the call's `pins`, asked where a call reads a user's text and the call did not learn it as it
        began (call_start); None: the engine reads all text alike."""
        return None

    def reading(self, answer) -> str:
        """The sqlglot dialect in which a user's SQL text is read as the session reads it, from the
        session's answer to reading_query or call_start (sqlmetrics.readings). Raises SourceError
        where no reading here reads it as the engine would."""
        return self.name

    def for_server(self, version: str | None) -> Capabilities:
        """The capabilities of a server whose version string is `version` (None: unknown), where
        servers of one dialect differ (MariaDB and MySQL)."""
        return self

    def unquoted_table_part(self, part: str) -> re.Pattern:
        """What the `part` ("catalog", "db" or "this") of a table reference may be unquoted."""
        return PLAIN_NAME

    def type_class(self, type_name: str) -> str:
        """'float', 'numeric' (exact numbers), 'boolean' or 'other' for a column's type name as the
        engine (or its driver, engine.Schema) names it."""
        t = type_name.upper()
        if _FLOATING.match(t):
            return "float"
        if _NUMERIC.match(t):
            return "numeric"
        return "boolean" if t in ("BOOLEAN", "BOOL") else "other"


class DuckDB(Capabilities):
    name = "duckdb"
    title = "DuckDB"
    template_syntax = True
    reads_files = True
    # its SYSTEM sample (its default) differs between runs on several threads, seed or not
    system_sample_repeats = False
    plans_from_data = True
    in_memory = True
    input_once = None
    failure_aborts = True
    explicit_ascending = True
    own_functions = ("SELECT function_name FROM duckdb_functions() WHERE NOT internal AND function_name IN "
                     "(SELECT function_name FROM duckdb_functions() WHERE internal)")

    def exact_text(self, column_sql, type_name):
        # a column's COLLATE NOCASE, or the session's default_collation, would merge 'U' and 'u'
        return f'{column_sql} COLLATE "binary"' if type_name.upper().startswith("VARCHAR") else None

    def is_nan(self, column_sql, decimal=False):
        # DuckDB folds isnan(col) to false where a Parquet file's min/max statistics (which leave NaN
        # out) bound the column, and any expression whose statistics it derives from them (col + 0,
        # abs(col), COALESCE(col, ...)); NULLIF has none, and is col itself except at 0
        return None if decimal else f"isnan(NULLIF({column_sql}, 0))"

    def nan_by_sums(self, column_sql):
        # DuckDB takes a Parquet file's min/max statistics as bounds of every value, but Parquet
        # writers leave NaN out of them (as the format asks), and `isnan(col)` becomes false before a
        # row is read. A sum is computed from the rows, and a NaN makes it NaN; of absolute values,
        # so that +inf and -inf (which sum to NaN) cannot meet, and an overflow gives +inf, never NaN.
        return f"isnan(SUM(ABS({column_sql})))"

    def is_infinite(self, column_sql, infinity, decimal=False):
        return f"isinf({column_sql})"

    def row_hash(self, columns_sql):
        return f"hash({', '.join(columns_sql)})"


class SQLite(Capabilities):
    name = "sqlite"
    title = "SQLite"
    input_once = "materialized"
    # its transactions have no read-only mode (a driver's SELECTs, checked, run in them as they are)
    begin_read_only = "BEGIN"
    within_transaction = (("SAVEPOINT sm_call",), ("ROLLBACK TO sm_call", "RELEASE sm_call"))
    loose_types = True
    own_functions = ("SELECT name FROM pragma_function_list WHERE NOT builtin AND name IN "
                     "(SELECT name FROM pragma_function_list WHERE builtin)")

    def is_nan(self, column_sql, decimal=False):
        return None  # SQLite stores NaN as NULL: the NULL check covers it

    def exact_text(self, column_sql, type_name):
        # a column declared COLLATE NOCASE (or RTRIM) merges 'U' and 'u' (or 'u' and 'u ')
        return f"{column_sql} COLLATE BINARY"

    def is_condition(self, type_class):
        return type_class in ("boolean", "numeric")  # a query's columns have no declared type

    def not_a_number(self, column_sql):
        # text ('', 'abc', 'NaN') and blobs, which SQLite compares above every number
        return f"typeof({column_sql}) NOT IN ('integer', 'real', 'null')"

    def type_class(self, type_name):
        # SQLite's type affinity rules (https://www.sqlite.org/datatype3.html#determination_of_column_affinity)
        t = type_name.upper()
        if "INT" in t:
            return "numeric"
        if any(k in t for k in ("CHAR", "CLOB", "TEXT")):
            return "other"
        if any(k in t for k in ("REAL", "FLOA", "DOUB")):
            return "float"
        return "boolean" if "BOOL" in t else "numeric"


class Postgres(Capabilities):
    name = "postgres"
    title = "PostgreSQL"
    input_once = "materialized"
    failure_aborts = True
    special_numerics = True  # numeric's NaN, and its infinities (PostgreSQL 14+)
    begin_read_only = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
    set_read_only = ("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY",)
    # a savepoint, whose rollback also undoes the SET LOCALs after it
    within_transaction = (("SAVEPOINT sm_call", "SET LOCAL transaction_read_only = on"),
                          ("ROLLBACK TO SAVEPOINT sm_call", "RELEASE SAVEPOINT sm_call"))
    builtin_path = "pg_catalog, pg_temp"
    uncommitted_work = "SELECT pg_catalog.txid_current_if_assigned() IS NOT NULL"
    #: set for the call's transaction (SET LOCAL), as call_start reads the caller's: the search path;
    #: the legacy standard_conforming_strings off, where a backslash in '...' escapes the next
    #: character (sqlglot writes literals for PostgreSQL without that escape); a negative
    #: extra_float_digits, which rounds the floats a driver reads as text (psycopg2: 0.4375 as 0.4);
    #: JIT, whose choice is by the plan's estimated cost, which the statements' many CTEs inflate, so
    #: that it compiled wide statements for longer than they ran (compare of 4 runs of 40,000 rows:
    #: 100 s with, 0.4 s without), where at 3M rows it saves 5-15% (sm.auc 5.5 s against 5.8)
    transaction_settings = (("search_path", builtin_path), ("standard_conforming_strings", "on"),
                            ("extra_float_digits", "3"), ("jit", "off"))

    def call_start(self):
        # MATERIALIZED: the caller's values are read before the call's are set
        settings = ", ".join(f"pg_catalog.set_config('{name}', '{value}', TRUE)" for name, value in self.transaction_settings)
        return ("WITH sm_caller AS MATERIALIZED (SELECT pg_catalog.current_schemas(TRUE) AS sm_path, "
                "pg_catalog.current_setting('standard_conforming_strings') AS sm_strings) "
                f"SELECT sm_path, sm_strings, {settings} FROM sm_caller")

    def reading(self, answer):
        from .readings import postgres_reading
        return postgres_reading(answer)

    def is_nan(self, column_sql, decimal=False):
        # NaN equals NaN there; a numeric compared as numeric: cast to a float, one beyond the float
        # range would fail the query
        return f"{column_sql} = CAST('NaN' AS {'DECIMAL' if decimal else 'DOUBLE'})"

    def is_infinite(self, column_sql, infinity, decimal=False):
        if decimal:
            # numeric's infinities and NaN are its only values without a scale; no 'Infinity'
            # literal, which older versions cannot read
            return f"({column_sql} <> CAST('NaN' AS DECIMAL) AND scale({column_sql}) IS NULL)"
        return super().is_infinite(column_sql, infinity)

    def exact_text(self, column_sql, type_name):
        # a nondeterministic collation (ICU's case-insensitive ones, citext) merges 'U' and 'u'; the
        # "C" collation compares bytes
        return f'CAST({column_sql} AS TEXT) COLLATE "C"'

    def type_class(self, type_name):
        # pg_type's names (typname), as the catalogue gives them for a column's type; a driver's own
        # names (ADBC's, from Arrow types) as the base reads them
        return {"float4": "float", "float8": "float", "int2": "numeric", "int4": "numeric", "int8": "numeric",
                "numeric": "numeric", "bool": "boolean"}.get(type_name) or super().type_class(type_name)


class Redshift(Postgres):
    name = "redshift"
    title = "Redshift"
    special_numerics = False
    begin_read_only = "BEGIN READ ONLY"  # it takes no isolation level but its default
    set_read_only = ()  # a driver's transaction: the SELECTs run in it as they are, rolled back
    within_transaction = None  # no savepoints
    builtin_path = None  # golden-only: its session functions are not known to be PostgreSQL's
    uncommitted_work = None

    def call_start(self):
        return None  # its literals take backslash escapes, and sqlglot writes them so for it

    def reading(self, answer):
        return self.name

    def exact_text(self, column_sql, type_name):
        return None  # no COLLATE clause (redshift__bytewise)


class Spark(Capabilities):
    name = "spark"
    title = "Spark"
    guards_rows = True

    def type_class(self, type_name):
        t = type_name.lower()
        if t in ("double", "float"):
            return "float"
        if t in ("tinyint", "smallint", "int", "bigint") or t.startswith("decimal"):
            return "numeric"
        return "boolean" if t == "boolean" else "other"


class Databricks(Spark):
    name = "databricks"
    title = "Databricks"


class ClickHouse(Capabilities):
    name = "clickhouse"
    title = "ClickHouse"
    # A session's settings can cut a result short without an error (limit, offset, an overflow mode
    # 'break' or 'any' on any limit), pair rows otherwise (join_default_strictness), count
    # approximately (count_distinct_implementation) or answer from a cache of earlier results: each
    # is fixed for the statement by its SETTINGS clause, to what throws instead of returning less
    statement_settings = (
        ("limit", "0"), ("offset", "0"), ("join_default_strictness", "'ALL'"),
        ("count_distinct_implementation", "'uniqExact'"), ("use_query_cache", "0"),
        *((f"{kind}_overflow_mode", "'throw'") for kind in (
            "result", "read", "group_by", "join", "sort", "set", "distinct", "transfer", "timeout")))

    def pinned(self, sql, settings):
        return f"{sql} SETTINGS {', '.join(f'{name} = {value}' for name, value in settings)}" if settings else sql

    def changed_settings(self):
        # only those: a read-only session (readonly = 1) refuses a SETTINGS clause of any setting,
        # even at the value it has
        names = ", ".join(f"'{name}'" for name, _ in self.statement_settings)
        return f"SELECT groupArray(name) FROM system.settings WHERE changed AND name IN ({names})"

    def type_class(self, type_name):
        t = type_name
        while inner := re.fullmatch(r"(?:Nullable|LowCardinality)\((.*)\)", t):
            t = inner.group(1)
        if re.fullmatch(r"B?Float\d+", t):
            return "float"
        if re.fullmatch(r"U?Int\d+|Decimal(\d+)?\(.*\)", t):
            return "numeric"
        return "boolean" if t == "Bool" else "other"


class BigQuery(Capabilities):
    name = "bigquery"
    title = "BigQuery"

    def unquoted_table_part(self, part):
        return _DASHED_NAME if part != "db" else PLAIN_NAME


class Snowflake(Capabilities):
    name = "snowflake"
    title = "Snowflake"
    folds_result_names = True


class Trino(Capabilities):
    name = "trino"
    title = "Trino"


class MySQL(Capabilities):
    name = "mysql"
    title = "MySQL"
    # One snapshot for the call (InnoDB's, at REPEATABLE READ whatever the session's level), read-only,
    # begun by the first read with autocommit off: a START TRANSACTION would release the tables the
    # caller holds by LOCK TABLES. Inside the caller's transaction a transaction's access mode cannot
    # change, and its reads already see one snapshot (REPEATABLE READ, the default).
    begin_read_only = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
    autocommit_off = ("SET autocommit = 0", "SET autocommit = 1")
    rollback = "ROLLBACK AND NO CHAIN NO RELEASE"  # whatever completion_type says
    nested_with = False  # MariaDB's does not (MySQL 8's does): the CTEs are written at one level
    # MariaDB computes a CTE once per reference (as a derived table), and a nested WITH could not see it
    input_once = None
    screens_in_statement = False
    infinity_stand_in = 1.7976931348623157e308  # the largest double (mysql__infinity)
    parenthesized_not = True
    text_charset = "utf8mb4"
    # sql_select_limit cuts every result short without an error; sql_mode's flags that act as a
    # statement runs (PAD_CHAR_TO_FULL_LENGTH, ...) are cleared (those read by the parser cannot be:
    # the SQL is written to read alike under them)
    statement_settings = (("sql_mode", "''"), ("sql_select_limit", "18446744073709551615"))
    #: the binary collation without trailing-space padding of the server's utf8mb4: MySQL 8's
    binary_collation = "utf8mb4_0900_bin"
    def reading_query(self, pins):
        # the caller's sql_mode, kept in a user variable where session_pins has set the call's; not the
        # statement's own (pinned), which is what @@SESSION.sql_mode reads under SET STATEMENT
        return self.pinned("SELECT COALESCE(@sm_saved_sql_mode, @@SESSION.sql_mode)",
                           tuple((name, value) for name, value in pins if name != "sql_mode"))

    def reading(self, answer):
        from .readings import Unread, mysql_reading
        try:
            return mysql_reading(answer.decode() if isinstance(answer, bytes) else answer)
        except Unread as e:
            raise SourceError(f"{e}: sqlmetrics reads a query or condition as MySQL's grammar does; run it from a "
                              "session without that mode") from None

    def is_nan(self, column_sql, decimal=False):
        return None  # its floats hold no NaN (nor infinities): it refuses to store them

    def is_condition(self, type_class):
        return type_class in ("boolean", "numeric")  # a comparison is an integer, 1 or 0

    def exact_text(self, column_sql, type_name):
        # its usual collations (utf8mb4_general_ci, ..._0900_ai_ci) make 'Z' equal to 'z' in GROUP BY,
        # joins and DISTINCT, and its _bin ones 'u' equal to 'u ' (PAD SPACE): ids, classes and slices
        # must match exactly, as on every other engine. In utf8mb4 first, whatever the column's
        # character set (latin1, utf8mb3) or the connection's
        return f"CONVERT({column_sql} USING utf8mb4) COLLATE {self.binary_collation}"

    def began_already(self, error):
        return "1568" in error  # ER_CANT_CHANGE_TX_CHARACTERISTICS: "... while a transaction is in progress"

    def session_pins(self):
        # MySQL has no statement-scoped SET for these: the caller's values are kept in user variables
        # of the session (which read as NULL once cleared, as one never set)
        pin = ", ".join(f"@sm_saved_{name} = @@SESSION.{name}, SESSION {name} = {value}"
                        for name, value in self.statement_settings)
        unpin = ", ".join(f"SESSION {name} = @sm_saved_{name}, @sm_saved_{name} = NULL" for name, _ in self.statement_settings)
        return (f"SET {pin}",), (f"SET {unpin}",)

    def for_server(self, version):
        return _MARIADB if version and "mariadb" in version.lower() else self

    def is_infinite(self, column_sql, infinity, decimal=False):
        return None


class MariaDB(MySQL):
    """A MariaDB server, of the mysql dialect (MySQL.for_server)."""

    title = "MariaDB"
    binary_collation = "utf8mb4_nopad_bin"

    def pinned(self, sql, settings):
        return f"SET STATEMENT {', '.join(f'{name} = {value}' for name, value in settings)} FOR {sql}" if settings else sql

    def session_pins(self):
        return (), ()


_MARIADB = MariaDB()

#: every dialect, by name, in the order they are listed to users
_ALL = {c.name: c() for c in (DuckDB, SQLite, Postgres, Spark, Databricks, ClickHouse, BigQuery, Snowflake, Trino,
                              Redshift, MySQL)}
DIALECTS = tuple(_ALL)


def of(dialect: str) -> Capabilities:
    """The capabilities of `dialect` (one of DIALECTS)."""
    return _ALL[dialect]
