"""Engines as the fuzz tests see them (tests/test_round_trip.py, tests/test_allowed_functions.py): a
connection with the table `preds` (label, score), the engine's own reading of a statement (its parser,
never sqlglot's), its own catalogue of functions and whether it declares each deterministic, and its
traces: what a statement with an effect would change. A helper module, as conftest.py: test modules
import from here, never from each other.

- ``reads(sql)``: the string constants the engine's parser finds in `sql` (None: it does not parse);
- ``functions(sql)``: the functions the engine's parser finds `sql` calling, lower case (None where the
  engine has no parser to ask: MariaDB);
- ``pure(name)``: the engine's own word that `name` is deterministic (None: it has no such function);
- ``traces()``: tables, settings, locks, counters, the data: equal before and after a statement that
  has no effect.
"""
from __future__ import annotations

import json
import os
import re
import sqlite3

import duckdb
import sqlglot
from sqlglot import exp

from conftest import connect_mysql, connect_postgres, unreachable

#: the dates and times of a statement's start (or its transaction's), which engines call volatile or
#: non-deterministic, as sqlmetrics allows them (docs/safety.md): one value for the statement
STATEMENT_TIME = {"now", "now64", "today", "yesterday", "localtimestamp", "localtime", "current_date",
                  "current_time", "current_timestamp", "curdate", "curtime", "utc_timestamp", "utc_date",
                  "utc_time", "unix_timestamp", "statement_timestamp", "transaction_timestamp"}
#: what an engine's catalogue calls deterministic though a call holds the connection (ClickHouse's sleep)
STALLS = {"sleep", "sleepeachrow", "pg_sleep", "pg_sleep_for", "pg_sleep_until", "sleep_ms", "benchmark"}


class DuckDB:
    name = "duckdb"
    folds = False
    #: table functions and macros, which DuckDB's catalogue gives no stability: those that only compute
    PURE_UNRATED = {"range", "generate_series", "unnest", "nullif", "if", "split_part", "array_append",
                    "array_prepend", "array_reverse", "array_to_string", "list_append", "list_prepend",
                    "list_reverse", "list_sum", "list_avg", "list_min", "list_max", "list_count", "list_first",
                    "list_last", "geomean", "geometric_mean", "weighted_avg", "wavg", "histogram", "date_add",
                    "fdiv", "array_pop_back", "array_pop_front", "array_push_back", "array_push_front",
                    "list_any_value", "list_median", "list_mode", "list_product", "list_string_agg",
                    "list_stddev_pop", "list_stddev_samp", "list_var_pop", "list_var_samp", "list_entropy",
                    "list_histogram", "list_kurtosis", "list_kurtosis_pop", "list_mad", "list_sem",
                    "list_skewness", "list_bool_and", "list_bool_or", "list_bit_and", "list_bit_or",
                    "list_bit_xor", "list_approx_count_distinct", "md5_number_lower", "md5_number_upper",
                    "days_in_month", "regexp_split_to_table", "generate_subscripts", "map_contains_entry",
                    "map_contains_value"}
    #: DuckDB's readers of files and URLs: a string they are given is a path
    READERS = {"read_parquet", "parquet_scan", "read_csv", "read_csv_auto", "read_json", "read_json_auto",
               "read_ndjson", "read_ndjson_auto", "read_text", "read_blob", "glob", "sniff_csv", "read_duckdb"}

    def __init__(self):
        self.con = duckdb.connect()
        self.con.execute("CREATE TABLE preds AS SELECT * FROM (VALUES (1, 0.9), (0, 0.1)) t(label, score)")
        self.oracle = duckdb.connect()  # json_serialize_sql with the text bound as a value
        self._ratings = {}  # each overload's stability (None: a macro's, a table function's)
        for name, stability, effects in self.oracle.execute(
                "SELECT function_name, stability, has_side_effects FROM duckdb_functions()").fetchall():
            self._ratings.setdefault(name.lower(), set()).add("VOLATILE" if effects else stability)

    def _parse(self, sql):
        found = json.loads(self.oracle.execute("SELECT json_serialize_sql(?)", [sql]).fetchone()[0])
        if found["error"] and found.get("error_type") == "parser":
            return None
        assert not found["error"], found
        assert len(found["statements"]) == 1 and found["statements"][0]["node"]["type"] == "SELECT_NODE"
        return found

    def reads(self, sql):
        found = self._parse(sql)
        if found is None:
            return None
        return sorted(n["literal"]["text"] for n in walk(found) if isinstance(n, dict)
                      and n.get("class") == "CONSTANT" and n["literal"].get("kind") == "STRING")

    def functions(self, sql):
        found = self._parse(sql)
        return None if found is None else {n["function_name"].lower() for n in walk(found) if isinstance(n, dict)
                                           and isinstance(n.get("function_name"), str)}

    def paths(self, sql):
        """The strings DuckDB reads as a path: its readers' arguments, and names in FROM."""
        found = self._parse(sql) or {}
        out = [n["table_name"] for n in walk(found) if isinstance(n, dict) and n.get("type") == "BASE_TABLE"]
        for call in walk(found):
            if isinstance(call, dict) and str(call.get("function_name")).lower() in self.READERS:
                out += [n["literal"]["text"] for n in walk(call) if isinstance(n, dict) and n.get("class") == "CONSTANT"
                        and n["literal"].get("kind") == "STRING"]
        return out

    def pure(self, name):
        ratings = self._ratings.get(name)
        return None if ratings is None else "VOLATILE" not in ratings and (None not in ratings
                                                                            or name in self.PURE_UNRATED)

    def catalogue(self):
        return sorted(self._ratings)

    def traces(self):
        return (self.con.execute("SELECT list(table_name ORDER BY table_name) FROM information_schema.tables")
                .fetchone()[0], self.con.execute("SELECT count(*), sum(score) FROM preds").fetchone(),
                self.con.execute("SELECT list((name, value) ORDER BY name) FROM duckdb_settings()").fetchone()[0],
                self.con.execute("SELECT list((extension_name, loaded, installed) ORDER BY extension_name) "
                                 "FROM duckdb_extensions()").fetchone()[0],
                self.con.execute("SELECT count(*) FROM duckdb_variables()").fetchone()[0],
                self.con.execute("SELECT count(*) FROM duckdb_secrets()").fetchone()[0],
                self.con.execute("SELECT count(*) FROM duckdb_logs()").fetchone()[0])

    def close(self):
        self.con.close()
        self.oracle.close()


class SQLite:
    name = "sqlite"
    folds = True  # its bytecode may drop a string it needs no register for
    _ALLOWED = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
    _DETERMINISTIC = 0x800  # SQLITE_DETERMINISTIC in pragma_function_list's flags

    def __init__(self):
        self.con = sqlite3.connect(":memory:")
        self.con.execute("CREATE TABLE preds (label INTEGER, score REAL)")
        self.con.execute("INSERT INTO preds VALUES (1, 0.9), (0, 0.1)")
        self.con.commit()
        self.actions = []
        # (action, its first argument, its second): a function's name is its second
        self.con.set_authorizer(lambda action, a, b, db, trigger: self.actions.append((action, a, b)) or sqlite3.SQLITE_OK)
        self._pure = {}
        for name, kind, flags in self.con.execute("SELECT name, type, flags FROM pragma_function_list"):
            # an aggregate or window function is never flagged deterministic: it reads many rows
            self._pure[name] = self._pure.get(name, True) and (bool(flags & self._DETERMINISTIC) or kind in "aw")

    def _explain(self, sql):
        self.actions.clear()
        try:
            return self.con.execute(f"EXPLAIN {sql}").fetchall()  # prepared, not run: the authorizer sees it all
        except sqlite3.Error:  # it does not compile (no such function...)
            return None

    def reads(self, sql):
        plan = self._explain(sql)
        if plan is None:
            return None
        refused = [(a, first, second) for a, first, second in self.actions if a not in self._ALLOWED
                   or (a == sqlite3.SQLITE_FUNCTION and second in ("load_extension", "sqlite_attach"))]
        assert not refused, refused
        # SQLite's strings (String8's p4): each one is a literal sqlglot read (some may be folded away),
        # or a double-quoted name that is no column's, which SQLite reads as a string (its legacy rule
        # for double-quoted strings: the same token, as a value)
        names = {node.name for node in sqlglot.parse_one(sql, read="sqlite").find_all(exp.Identifier) if node.quoted}
        return sorted(str(row[5]) for row in plan if row[1] == "String8" and row[5] not in names)  # (addr, opcode, p1, ..., p4)

    def functions(self, sql):
        if self._explain(sql) is None:
            return None
        return {name.lower() for action, _, name in self.actions if action == sqlite3.SQLITE_FUNCTION}

    def pure(self, name):
        return self._pure.get(name)

    def catalogue(self):
        return sorted(self._pure)

    def traces(self):
        return (self.con.execute("SELECT group_concat(name) FROM sqlite_master").fetchone(),
                self.con.execute("PRAGMA database_list").fetchall(), self.con.execute("PRAGMA query_only").fetchone(),
                self.con.execute("SELECT count(*), sum(score) FROM preds").fetchone(), self.con.in_transaction,
                self.con.total_changes)

    def close(self):
        self.con.close()


class Postgres:
    """`conforming`: the session's standard_conforming_strings (off: a backslash escapes in '...')."""

    folds = False

    def __init__(self, conforming: bool = True):
        try:
            import pglast  # noqa: F401
        except ImportError as e:
            unreachable("PostgreSQL's parser (pglast)", e)
        self.name = "postgres"
        self.con = connect_postgres(autocommit=True)
        self.schema = f"sqlmetrics_round_trip_{os.getpid()}_{int(conforming)}"
        self.con.execute(f'CREATE SCHEMA "{self.schema}"')
        self.con.execute(f'SET search_path TO "{self.schema}"')
        self.con.execute("CREATE TABLE preds (label bigint, score double precision)")
        self.con.execute("INSERT INTO preds VALUES (1, 0.9), (0, 0.1)")
        self.con.execute(f"SET standard_conforming_strings = {'on' if conforming else 'off'}")
        self.con.execute("SET escape_string_warning = off")
        self._volatility = {}
        for name, volatility in self.con.execute("SELECT proname, provolatile FROM pg_proc").fetchall():
            self._volatility[name] = max(self._volatility.get(name, "i"), volatility)  # i < s < v

    def _parse(self, sql):
        from pglast.parser import ParseError, parse_sql_json
        try:
            found = json.loads(parse_sql_json(sql))  # libpg_query: the server's grammar, conforming strings
        except ParseError:
            return None
        assert len(found["stmts"]) == 1 and "SelectStmt" in found["stmts"][0]["stmt"], found
        return found

    def reads(self, sql):
        found = self._parse(sql)
        # an A_Const's string: {"sval": {"sval": "text"}, "location": n} (an empty text has no inner sval)
        return None if found is None else sorted(
            n["sval"].get("sval", "") for n in walk(found) if isinstance(n, dict)
            and isinstance(n.get("sval"), dict) and set(n) <= {"sval", "location"})

    def functions(self, sql):
        found = self._parse(sql)
        # a FuncCall's funcname: [{"String": {"sval": "pg_catalog"}}, {"String": {"sval": "lower"}}]
        return None if found is None else {".".join(part["String"]["sval"] for part in n["FuncCall"]["funcname"]).lower()
                                           for n in walk(found) if isinstance(n, dict) and "FuncCall" in n}

    def pure(self, name):
        volatility = self._volatility.get(name.rsplit(".", 1)[-1])
        return None if volatility is None else volatility in "is"

    def catalogue(self):
        return sorted(self._volatility)

    def traces(self):
        return (self.con.execute("SELECT string_agg(tablename, ',') FROM pg_tables WHERE schemaname = %s",
                                 [self.schema]).fetchone(),
                self.con.execute("SHOW standard_conforming_strings").fetchone(),
                self.con.execute("SELECT count(*), sum(score) FROM preds").fetchone(), self.con.info.transaction_status,
                self.con.execute("SELECT array_agg((name, setting) ORDER BY name) FROM pg_settings "
                                 "WHERE source = 'session'").fetchone(),
                self.con.execute("SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory'"
                                 ).fetchone(),
                self.con.execute("SELECT count(*) FROM pg_listening_channels()").fetchone())

    def close(self):
        self.con.execute(f'DROP SCHEMA "{self.schema}" CASCADE')
        self.con.close()


class ClickHouse:
    name = "clickhouse"
    folds = False
    #: table functions, which system.functions does not rate: those that only compute
    PURE_UNRATED = {"generateseries", "generate_series", "values", "null"}
    #: functions it calls non-deterministic as they make rows of an array's values
    MAKE_ROWS = {"arrayjoin", "unnest"}

    def __init__(self):
        try:
            from chdb import session
        except ImportError as e:
            unreachable("ClickHouse (chDB)", e)
        self.con = session.Session()
        self.con.query("CREATE TABLE preds (label Int64, score Float64) ENGINE = Memory")
        self.con.query("INSERT INTO preds VALUES (1, 0.9), (0, 0.1)")
        rows = self.con.query("SELECT name, deterministic, is_aggregate FROM system.functions", "JSONCompact").bytes()
        self._pure = {}
        for name, deterministic, aggregate in json.loads(rows)["data"]:
            # an aggregate's determinism is not rated: it reads many rows
            pure = deterministic == 1 or (deterministic is None and aggregate) or name.lower() in self.MAKE_ROWS
            self._pure[name.lower()] = self._pure.get(name.lower(), True) and pure
        # a table function is not rated either: those that only compute (format is a function too)
        for (name,) in json.loads(self.con.query("SELECT name FROM system.table_functions", "JSONCompact").bytes())["data"]:
            self._pure.setdefault(name.lower(), name.lower() in self.PURE_UNRATED)

    def _ast(self, sql):
        try:
            tree = self.con.query(f"EXPLAIN AST {sql}", "TabSeparatedRaw").bytes().decode()
        except RuntimeError as e:
            self.con.query("SELECT 1", "CSV")  # chDB hands a failed query's output to the next: drain it
            if "SYNTAX_ERROR" in str(e):
                return None
            raise
        assert tree.startswith("SelectWithUnionQuery"), tree[:200]
        return tree

    def reads(self, sql):
        tree = self._ast(sql)
        if tree is None:
            return None
        found = re.findall(r"^ *Literal ('(?:[^'\\]|\\.)*')(?: \(alias .*\))?$", tree, re.M)
        return sorted(_clickhouse_string(literal) for literal in found)

    def functions(self, sql):
        tree = self._ast(sql)
        return None if tree is None else {name.lower() for name in re.findall(r"^ *Function (\w+)", tree, re.M)}

    def pure(self, name):
        return self._pure.get(name)

    def catalogue(self):
        return sorted(self._pure)

    def traces(self):
        return (self.con.query("SELECT groupArray(name) FROM system.tables WHERE database = currentDatabase()",
                               "CSV").bytes(),
                self.con.query("SELECT count(), sum(score) FROM preds", "CSV").bytes(),
                self.con.query("SELECT groupArray((name, value)) FROM system.settings WHERE changed", "CSV").bytes())

    def close(self):
        self.con.close()


class MariaDB:
    """MariaDB through PyMySQL. No parser of its own can be asked (functions: None); its functions are
    those of MARIADB_FUNCTIONS, a list reviewed by hand, as it has no catalogue of their determinism."""

    name = "mysql"
    folds = False
    #: statement counters a call moves itself (its transaction, its SELECTs, the SHOW of traces, the SET
    #: TRANSACTION that begins its transaction: the settings themselves are compared as values)
    _OWN_COUNTERS = {"Com_begin", "Com_rollback", "Com_select", "Com_show_status", "Com_set_option"}

    def __init__(self, locks: tuple[str, ...] = ()):
        self.con = connect_mysql()
        self.database = f"sqlmetrics_fuzz_{os.getpid()}"
        self.locks = locks  # lock names a statement could take: IS_USED_LOCK says whether one is held
        with self.con.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE `{self.database}`")
            self.con.select_db(self.database)
            cursor.execute("CREATE TABLE preds (label BIGINT, score DOUBLE)")
            cursor.execute("INSERT INTO preds VALUES (1, 0.9), (0, 0.1)")
        self.con.commit()

    def reads(self, sql):
        return None

    def functions(self, sql):
        return None

    def pure(self, name):
        return MARIADB_FUNCTIONS.get(name)

    def catalogue(self):
        return sorted(MARIADB_FUNCTIONS)

    def traces(self):
        with self.con.cursor() as cursor:
            cursor.execute("SHOW SESSION STATUS WHERE Variable_name LIKE 'Com\\_%' OR Variable_name IN "
                           "('Handler_write', 'Handler_delete')")
            counters = {k: v for k, v in cursor.fetchall() if k not in self._OWN_COUNTERS}
            cursor.execute("SELECT LAST_INSERT_ID(), @@session.sql_mode, @@session.autocommit, @@session.tx_read_only, "
                           "@@session.time_zone, @@session.tx_isolation, (SELECT count(*) FROM preds), "
                           "(SELECT sum(score) FROM preds)"
                           + "".join(f", IS_USED_LOCK('{lock}')" for lock in self.locks))
            return counters, cursor.fetchone()

    def close(self):
        with self.con.cursor() as cursor:
            cursor.execute(f"DROP DATABASE `{self.database}`")
        self.con.close()


#: MariaDB's functions, reviewed by hand (True: computed from the arguments alone, or a statement's
#: time; False: anything else). The server has no catalogue that says so.
MARIADB_FUNCTIONS = dict.fromkeys("""
    abs acos asin atan atan2 ceil ceiling cos cot crc32 degrees exp floor ln log log10 log2 mod pi pow power
    radians round sign sin sqrt tan truncate conv bin oct hex unhex bit_count
    ascii char_length character_length concat concat_ws elt field find_in_set format insert instr lcase left
    length locate lower lpad ltrim md5 mid octet_length ord position quote repeat replace reverse right rpad
    rtrim sha1 sha2 soundex space strcmp substr substring substring_index trim ucase upper regexp_replace
    regexp_instr regexp_substr from_base64 to_base64 inet_aton inet_ntoa
    adddate addtime convert_tz curdate current_date current_time current_timestamp curtime date date_add
    date_format date_sub datediff day dayname dayofmonth dayofweek dayofyear extract from_days from_unixtime
    get_format hour last_day localtime localtimestamp makedate maketime microsecond minute month monthname now
    period_add period_diff quarter sec_to_time second str_to_date subdate subtime time time_format time_to_sec
    timediff timestamp timestampadd timestampdiff to_days to_seconds unix_timestamp utc_date utc_time
    utc_timestamp week weekday weekofyear year yearweek
    coalesce greatest if ifnull isnull least nullif nvl nvl2 cast
    avg bit_and bit_or bit_xor count group_concat max min std stddev stddev_pop stddev_samp sum var_pop
    var_samp variance
    json_contains json_extract json_length json_unquote json_valid json_value json_type json_keys
    row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
""".split(), True) | dict.fromkeys("""
    get_lock release_lock release_all_locks is_free_lock is_used_lock last_insert_id benchmark master_pos_wait
    master_gtid_wait sleep uuid uuid_short sys_guid sysdate rand random_bytes connection_id found_rows row_count
    database schema user current_user session_user system_user version load_file nextval setval lastval
    binlog_gtid_pos
""".split(), False)


def walk(node):
    yield node
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        yield from walk(child)


def _clickhouse_string(quoted: str) -> str:
    """A string as EXPLAIN AST writes it: quoted, with backslash escapes."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "b": "\b", "f": "\f"}.get(
        m.group(1), m.group(1)), quoted[1:-1])
