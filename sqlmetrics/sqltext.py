"""SQL as syntax trees: the safety checks and the last step of every query.

Rendered template text is parsed (DuckDB dialect), checked to be exactly one read-only query, the
source relation is put in place of the placeholder as a syntax tree (never as text), and the tree
is generated in the target dialect. The text generated is checked once more as text (check_final):
a generator may write a node in a form that reads otherwise (sqlglot writes the placeholder :x$ for
DuckDB as $x$, which DuckDB reads as the start of a dollar-quoted string), so what runs is checked
as it will be read, not as the tree it came from. engine.py has each engine's own reader agree.
"""
from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, SqlglotError
from sqlglot.tokens import Token, TokenType

from . import allowed_functions, dialects
from .errors import SourceError
from .dialects import DIALECTS, PLAIN_NAME
from .target import Target
from .templates import NATIVE, placeholder_uses

#: what templates are rendered with in place of the data; replaced by the real source afterwards
PLACEHOLDER = "sm_source"

# Anything that writes, changes the session, or leaves the SELECT world.
_FORBIDDEN = (exp.DML, exp.DDL, exp.Command, exp.Into, exp.Copy, exp.Set, exp.Use, exp.Pragma,
              exp.Transaction, exp.Commit, exp.Rollback, exp.Attach, exp.Detach, exp.Install,
              exp.Describe, exp.Kill, exp.LoadData, exp.Merge, exp.Lock)
#: values bound when a statement runs (?, :x, $1, @x, %(x)s, {x:String}, ${x}): sqlmetrics binds none,
#: and generators write some of them in a form another reader takes for a quote
_PARAMETERS = (exp.Placeholder, exp.Parameter, exp.SessionParameter)

#: sqlglot's string tokens, and with quoted names its quoted ones: each one opaque piece of text to a
#: reader, which another reader must find where sqlglot does (engine.py)
STRING_TOKENS = frozenset({TokenType.STRING, TokenType.BYTE_STRING, TokenType.NATIONAL_STRING,
                           TokenType.HEREDOC_STRING, TokenType.RAW_STRING, TokenType.BIT_STRING,
                           TokenType.HEX_STRING, TokenType.UNICODE_STRING})
QUOTED_TOKENS = STRING_TOKENS | {TokenType.IDENTIFIER}


def check_dialect(dialect: str) -> str:
    from .errors import ParameterError
    if dialect not in DIALECTS:
        raise ParameterError(f"dialect must be one of {', '.join(DIALECTS)}; got {dialect!r}")
    return dialect


def parse_select(sql: str, dialect: str, what: str, reading: str | None = None) -> exp.Query:
    """Parse `sql` as exactly one read-only query, or raise SourceError saying why not. The functions
    it calls are not checked: parse_query checks a user's. `reading`: the sqlglot dialect that reads
    the text as the caller's session does (sqlmetrics.readings), where it is not `dialect`'s."""
    if not isinstance(sql, str) or not sql.strip():
        raise SourceError(f"{what} must be a non-empty SQL string")
    statements = _statements(sql, reading or dialect, what)
    if len(statements) != 1:
        raise SourceError(f"{what} must be exactly one SELECT statement; found {len(statements)} statements")
    tree = statements[0]
    if not isinstance(tree, exp.Query):
        raise SourceError(f"{what} must be a SELECT statement; found {tree.key.upper()}")
    _require_read_only(tree, dialect, what)
    return tree


def parse_query(sql: str, dialect: str, what: str, functions: tuple[str, ...] = (),
                reading: str | None = None) -> exp.Query:
    """A user's query (a sqlmetrics.Query): parse_select, calling only the functions allowed
    (require_allowed) and those the user trusts (`functions`)."""
    tree = parse_select(sql, dialect, what, reading)
    require_allowed(tree, sql, dialect, what, functions)
    return tree


def parse_condition(sql: str, dialect: str, what: str, functions: tuple[str, ...] = (),
                    reading: str | None = None) -> exp.Expression:
    """Parse a user's `sql` as one boolean expression (a WHERE condition) without subqueries, read-only
    and calling only the functions allowed (require_allowed) and those the user trusts (`functions`),
    or raise SourceError saying why not. `reading` as for parse_select."""
    if not isinstance(sql, str) or not sql.strip():
        raise SourceError(f"{what} must be a non-empty condition")
    parsed = _statements(sql, reading or dialect, what)
    if len(parsed) != 1 or not isinstance(parsed[0], exp.Condition) or isinstance(parsed[0], exp.Query):
        raise SourceError(f"{what} must be one condition, such as \"score IS NOT NULL AND day = 3\"")
    tree = parsed[0]
    if tree.find(exp.Query, exp.Subquery):
        raise SourceError(f"{what} must be one condition on the source's columns, without a subquery")
    _require_read_only(tree, dialect, what)
    require_allowed(tree, sql, dialect, what, functions)
    return tree


def _statements(sql: str, dialect: str, what: str) -> list[exp.Expression]:
    """The statements of `sql` as `dialect` reads them, without their comments: nothing of a comment
    reaches an engine (a generator writes a -- comment as /* ... */, a form with more ways to end)."""
    if "\0" in sql:  # the C clients of SQLite and PostgreSQL stop reading there: what runs would be less
        raise SourceError(f"{what} has a NUL character (write chr(0) instead)")
    try:
        # a comment after the last ';' comes back as a Semicolon node: not a statement
        statements = [s for s in sqlglot.parse(sql, read=dialect) if s is not None and not isinstance(s, exp.Semicolon)]
    except SqlglotError as e:
        raise SourceError(f"{what} does not parse as {dialect} SQL: {_reason(e)}") from None
    except (AttributeError, TypeError, IndexError):  # sqlglot failing on text it cannot read (MySQL's DATE_ADD(x))
        raise SourceError(f"{what} does not parse as {dialect} SQL") from None
    for statement in statements:
        for node in statement.walk():
            node.comments = None
    return statements


def _reason(error: SqlglotError) -> str:
    """sqlglot's reason in one line: a parse error's description, or where the text stopped being tokens
    (an unclosed quote or comment)."""
    if isinstance(error, ParseError) and error.errors:
        return error.errors[0]["description"]
    detail = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return f"{detail} (a quote or a comment that is not closed?)" if detail.startswith("Error tokenizing") else detail


def _require_read_only(tree: exp.Expression, dialect: str, what: str) -> None:
    bad = next((node for node in tree.walk() if isinstance(node, _FORBIDDEN)), None)
    if bad is not None:
        raise SourceError(f"{what} must be read-only; it contains {bad.key.upper()}")
    parameter = next(tree.find_all(*_PARAMETERS), None)
    if parameter is not None:
        shown = (f":{parameter.name}" if parameter.name else "?") if isinstance(parameter, exp.Placeholder) else (
            parameter.sql(dialect))
        raise SourceError(f"{what} has a placeholder for a value bound when it runs ({shown}); sqlmetrics binds "
                          "none: write the value itself into the SQL")


@functools.lru_cache(maxsize=512)
def check_final(sql: str, dialect: str) -> None:
    """The last check of a statement before it runs, on its text: `dialect` reads it as exactly one
    read-only SELECT, without placeholders. What was checked as a tree before is
    checked again as it was written, since a generator may write a node in a form that reads
    otherwise; engine.py has each engine's own reader agree with this reading. Raises SourceError."""
    try:
        parse_select(sql, dialect, f"the {dialect} SQL written for this call")
    except SourceError as e:
        raise SourceError(f"{e}: a query or condition given does not read as it was checked once written for "
                          f"{dialect}; sqlmetrics runs only what it has checked") from None


def tokens(sql: str, dialect: str) -> list[Token]:
    """sqlglot's tokens of `sql` in `dialect` (each with its start and end), for an engine's own reader
    to be compared with."""
    return Dialect.get_or_raise(dialect).tokenize(sql)


@functools.lru_cache(maxsize=512)
def functions_called(sql: str, dialect: str) -> frozenset[str]:
    """The names `sql` calls, as written (a name before an opening parenthesis), in lower case."""
    found = tokens(sql, dialect)
    return frozenset(t.text.lower() for t, after in zip(found, found[1:])
                     if after.token_type == TokenType.L_PAREN and t.token_type not in QUOTED_TOKENS)


def require_allowed(tree: exp.Expression, sql: str, dialect: str, what: str, functions: tuple[str, ...] = ()) -> None:
    """A user's query or condition (`tree`, read from the text `sql`) calls only functions known to be
    pure and deterministic (allowed_functions), and those named in `functions` (trusted as they are:
    compared case-insensitively); it reads no URL, and in DuckDB only local files of the kinds
    sqlmetrics reads. Raise SourceError naming the first other and why it is refused."""
    trusted = {name.lower() for name in functions}
    for node in tree.walk():
        if isinstance(node, exp.Table) and isinstance(node.this, exp.Identifier):
            _require_a_table(node, dialect, what)
        if not isinstance(node, exp.Func) or (trusted and _names(node, dialect, sql) & trusted):
            continue
        refusal = _refusal(node, dialect)
        if refusal:
            reason, advice = refusal
            shown = _shown(node, dialect, sql)
            if refusal is allowed_functions.UNKNOWN:
                advice += f", or if you trust it, pass functions=({shown.lower()!r},) to sqlmetrics.Query"
            raise SourceError(f"{what} calls {shown}(), {reason}; {advice}")


def _refusal(node: exp.Func, dialect: str) -> tuple[str, str] | None:
    """Why `node` is refused (the reason and what to do instead), or None where it is allowed."""
    prefixes = dialects.of(dialect).prefixes()
    qualified = _qualifier(node) is not None  # a function of a schema is not the one a name means
    if type(node) in allowed_functions.BY_NAME:
        name = node.name.lower()
        if not qualified and any(name in allowed_functions.ALLOWED_NAMES.get(p, ()) for p in prefixes):
            return None
        if not qualified and any(name in allowed_functions.FILE_READER_NAMES.get(p, ()) for p in prefixes):
            return _file_refusal(node.expressions, dialect)
        return allowed_functions.REFUSED_NAMES.get(name, allowed_functions.UNKNOWN)
    if qualified:
        return allowed_functions.UNKNOWN
    if type(node) in allowed_functions.ALLOWED_CLASSES:
        return None
    if type(node) in allowed_functions.FILE_READER_CLASSES and dialects.of(dialect).reads_files:
        return _file_refusal([node.this, *node.expressions] if node.this else node.expressions, dialect)
    if isinstance(node, (exp.Rand, exp.Randn)) and node.this is not None and any(
            p in allowed_functions.SEEDED_RANDOM for p in prefixes):
        return None  # RAND(42): the same values on each run
    # a class a newer sqlglot added is refused until it is reviewed (tests/test_allowed_functions.py)
    return allowed_functions.REFUSED_CLASSES.get(type(node), allowed_functions.UNKNOWN)


def _file_refusal(arguments: list, dialect: str) -> tuple[str, str] | None:
    """Why a DuckDB reader with these `arguments` is refused, or None where it reads local files of the
    kinds sqlmetrics reads, named as strings (a path computed could be anything, a URL)."""
    for literal in (n for argument in arguments for n in argument.walk() if _is_string(n)):
        if allowed_functions.URL.match(literal.name):
            return _url_refusal(literal.name)
    first = arguments[0] if arguments else None
    paths = first.expressions if isinstance(first, exp.Array) else [first]
    if not paths or not all(_is_string(p) for p in paths):
        return ("whose path is not written as a string", "write the path of a local file itself")
    wrong = next((p.name for p in paths if not allowed_functions.FILE.search(p.name)), None)
    if wrong is not None:
        return (f"which reads {wrong!r}, not a file sqlmetrics reads", f"it reads {allowed_functions.READ_EXTENSIONS}")
    return None


def _url_refusal(url: str) -> tuple[str, str]:
    return (f"which reads {url!r}, a URL", "sqlmetrics reads no URL named in SQL text (a request outside the "
            "database, and DuckDB installs an extension to make it): load the data into a table first")


def _require_a_table(table: exp.Table, dialect: str, what: str) -> None:
    """A table reference names a table, not a URL nor (DuckDB: a one-part name it reads as a file where
    no table has that name, such as 'x.parquet' or "x.xlsx") a file of a kind sqlmetrics does not read,
    which DuckDB may install an extension to read."""
    parts = [part.name for part in table.parts]
    url = next((part for part in parts if allowed_functions.URL.match(part)), None)
    if url is not None:
        raise SourceError(f"{what} reads {url!r}, a URL as a table; sqlmetrics reads no URL named in SQL text: load "
                          "the data into a table first")
    name = table.name
    if (dialects.of(dialect).reads_files and len(parts) == 1 and re.search(r"\.\w+\Z", name)
            and not allowed_functions.FILE.search(name)):
        raise SourceError(f"{what} reads {name!r}, which DuckDB reads as a file where no table has that name, one "
                          f"sqlmetrics does not read (it reads {allowed_functions.READ_EXTENSIONS}); for a table of "
                          f"that name, write its schema too (main.\"{name}\")")


def _is_string(node: exp.Expression) -> bool:
    return isinstance(node, exp.Literal) and node.is_string


def _qualifier(node: exp.Func) -> exp.Expression | None:
    """The schema a call names its function in (pg_catalog.lower(x), FROM main.range(3)), if any."""
    parent = node.parent
    if isinstance(parent, exp.Dot) and node.arg_key == "expression":
        return parent.this
    if isinstance(parent, exp.Table) and node.arg_key == "this":
        return parent.args.get("db")
    return None


def _shown(node: exp.Func, dialect: str, sql: str | None = None) -> str:
    """A function's name as the text `sql` wrote it (sqlglot keeps where; else as `dialect` writes it),
    with its schema where it has one."""
    start, end = node.meta.get("start"), node.meta.get("end")
    if type(node) in allowed_functions.BY_NAME:
        name = node.name
    elif sql is not None and start is not None and PLAIN_NAME.match(sql[start:end + 1]):
        name = sql[start:end + 1]
    else:
        written = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(", node.sql(dialect))
        name = (written.group(1) if written else node.sql_name()).lower()
    qualifier = _qualifier(node)
    return f"{qualifier.sql(dialect)}.{name}" if qualifier is not None else name


def function_names(tree: exp.Expression, dialect: str) -> tuple[str, ...]:
    """The names of every function `tree` calls, as a caller trusts them (require_allowed's `functions`)."""
    return tuple(sorted(set().union(*(_names(node, dialect) for node in tree.find_all(exp.Func)))))


def _names(node: exp.Func, dialect: str, sql: str | None = None) -> set[str]:
    """The names a caller may trust `node` by (lower case): as written, without its schema, and
    sqlglot's names of its class."""
    shown = _shown(node, dialect, sql).lower()
    names = {shown, shown.rsplit(".", 1)[-1]}
    if type(node) not in allowed_functions.BY_NAME:
        names |= {n.lower() for n in type(node).sql_names()}
    return names


def require_repeatable(tree: exp.Expression, dialect: str, what: str) -> None:
    """A computation reads its data more than once (the input checks, then the metric): a query whose
    rows change from run to run (a sample without a seed) would be checked on other rows than the ones
    measured. Raise SourceError for such a query. (A function whose value changes, such as random(),
    is refused as the query is read: require_allowed.)"""
    for node in tree.walk():
        if isinstance(node, exp.TableSample) and (node.args.get("seed") is None or (
                not dialects.of(dialect).system_sample_repeats and node.text("method").upper() in ("", "SYSTEM"))):
            raise SourceError(f"{what} takes a sample that differs from run to run; sqlmetrics reads it twice "
                              "(input checks, then the metric): use a seeded row sample (DuckDB: USING SAMPLE "
                              "10% (bernoulli, 42); PostgreSQL: TABLESAMPLE BERNOULLI (10) REPEATABLE (42)) or "
                              "store the sample in a table first")


def parse_table_name(name: str, dialect: str) -> exp.Table:
    """A table reference `name`, `schema.name` or `catalog.schema.name`, as `dialect` writes one:
    parts may be quoted in its own way ("DB"."SCHEMA"."T", `catalog`.`schema`.`t`); on BigQuery,
    `project.dataset.table` may be backquoted whole and unquoted project and table names may hold
    dashes (my-project.dataset.table), as BigQuery allows in a FROM clause.

    Anything else (a subquery, a function, an alias, a comment, a statement separator) is rejected.
    """
    if not isinstance(name, str) or not name.strip():
        raise SourceError(f"table name must be a non-empty string; got {name!r}")
    hint = ("; pass a plain table name such as 'schema.table', or wrap a query in "
            "sqlmetrics.Query('SELECT ...')")
    try:
        tokens = Dialect.get_or_raise(dialect).tokenize(name)
        table = sqlglot.parse_one(name, into=exp.Table, read=dialect)
    except SqlglotError:
        raise SourceError(f"{name!r} is not a table name{hint}") from None
    if any(t.token_type == TokenType.SEMICOLON or t.comments for t in tokens):
        raise SourceError(f"{name!r} contains a statement separator or a comment{hint}")
    extra = set(table.args) - {"this", "db", "catalog"}
    parts = [table.args.get(k) for k in ("catalog", "db", "this")]
    if any(table.args.get(k) for k in extra) or any(
            p is not None and (not isinstance(p, exp.Identifier)
                               or not (p.quoted or dialects.of(dialect).unquoted_table_part(k).match(p.name)))
            for k, p in zip(("catalog", "db", "this"), parts)):
        raise SourceError(f"{name!r} is not a plain table name{hint}")
    if table.this is None or not table.name:
        raise SourceError(f"{name!r} is not a table name{hint}")
    # Rebuild from the identifiers alone so nothing else of the parse survives; a dashed part is
    # quoted (the same name to BigQuery, and a name in any dialect)
    return exp.Table(**{k: exp.Identifier(this=p.name, quoted=p.quoted or not PLAIN_NAME.match(p.name))
                        for k, p in zip(("catalog", "db", "this"), parts) if p is not None})


_FINISHED: OrderedDict[tuple, str] = OrderedDict()
_FINISHED_MAX = 256
_FINISHED_LOCK = threading.Lock()  # calls from many threads share the memo


def finish(rendered: str, sources: dict[str, exp.Expression], target: Target,
           inputs: dict[str, exp.Query] | None = None, screen: exp.Expression | None = None) -> str:
    """Parse rendered template SQL, put the sources in place of their placeholder table names and
    the target's own macros in place of their sm_native calls, and generate it for `target`.
    `inputs`: CTEs the sources read (name -> query), written first (Capabilities.input_once);
    `screen`: a value added to each row of the result as its column sm_screen (api: the checks'
    screens, in the metric's own statement).

    Parsing and generating dominate the fixed cost of a call, and dashboards repeat the same
    calls, so results are memoised, keyed by what runs: each source as the target's dialect writes
    it (the text the result holds; another dialect's writing may lose what tells two apart, as
    DuckDB's drops the seed of MySQL's RAND(1)), bounded.
    """
    key = (rendered, tuple((k, v.sql(target.dialect)) for k, v in sorted(sources.items())),
           tuple((k, v.sql(target.dialect)) for k, v in (inputs or {}).items()),
           screen.sql(target.dialect) if screen is not None else None, target.dialect, target.pretty,
           target.warehouse_names)
    with _FINISHED_LOCK:
        if key in _FINISHED:
            _FINISHED.move_to_end(key)
            return _FINISHED[key]
    sql = _finish(rendered, sources, target, inputs or {}, screen)
    with _FINISHED_LOCK:
        _FINISHED[key] = sql
        if len(_FINISHED) > _FINISHED_MAX:
            _FINISHED.popitem(last=False)
    return sql


def _finish(rendered: str, sources: dict[str, exp.Expression], target: Target, inputs: dict[str, exp.Query],
            screen: exp.Expression | None) -> str:
    tree = _template(rendered, target)
    if screen is not None:
        _add_to_each_row(tree, screen.as_("sm_screen"))
    return _generated(_in_place(tree, sources), inputs, target)


def finish_side_by_side(parts: list[tuple[int, str, exp.Query]], inputs: dict[str, exp.Query],
                        target: Target) -> tuple[str, dict[int, list[str]]]:
    """One statement of several rendered metrics of one row each (a part: its key, its SQL rendered
    over the relation f"{PLACEHOLDER}_{key}", and the source that stands there), side by side in one
    row: a metric's column c as sm_<key>_<c>, then the columns of the last of `inputs` (CTEs written
    first, which the sources read). Also, per key, the metric's columns."""
    columns, derived = {}, []
    for key, rendered, source in parts:
        tree = _template(rendered, target)
        columns[key] = list(tree.named_selects)
        derived.append((key, _in_place(tree, {f"{PLACEHOLDER}_{key}": source}).subquery(f"sm_m{key}")))
    carried = list(inputs)[-1]
    query = exp.select(*(exp.column(c, table=f"sm_m{key}", quoted=True).as_(f"sm_{key}_{c}", quoted=True)
                         for key, _ in derived for c in columns[key]), exp.Column(this=exp.Star(), table=exp.to_identifier(carried)))
    query = query.from_(derived[0][1])
    for _, subquery in derived[1:] + [(None, exp.to_table(carried))]:
        query = query.join(subquery, join_type="CROSS")
    return _generated(query, inputs, target), columns


def _template(rendered: str, target: Target) -> exp.Expression:
    """The template's own SQL, before the sources are in place: their text is the user's, read as the
    session reads it (explicit_ascending would turn a user's bare ORDER BY into ASC)."""
    return _as_written(parse_select(rendered, "duckdb", "the rendered template"), target.capabilities)


def _in_place(tree: exp.Expression, sources: dict[str, exp.Expression]) -> exp.Expression:
    """`tree` with each source in place of the table named as its placeholder."""
    for table in list(tree.find_all(exp.Table)):
        if table.name in sources and not table.args.get("db"):
            replacement = sources[table.name].copy()
            if isinstance(replacement, exp.Query):
                replacement = replacement.subquery(table.alias or table.name)
            elif table.alias:
                replacement.set("alias", table.args["alias"])
            table.replace(replacement)
    return tree


def _generated(tree: exp.Expression, inputs: dict[str, exp.Query], target: Target) -> str:
    """The statement `tree` (with its inputs' CTEs first) as the target's dialect writes it, checked."""
    if inputs:
        tree = _inputs_first(tree, inputs, target.capabilities.input_once == "materialized")
    if not target.capabilities.nested_with:
        tree = _nested_with_hoisted(tree)
    tree = _not_parenthesized(tree) if target.capabilities.parenthesized_not else tree
    sql = _nulls_as_placed(_natives_in_place(tree, target), target.dialect).sql(
        dialect=target.dialect, pretty=target.pretty, comments=False)
    check_final(sql, target.dialect)
    return sql


def _add_to_each_row(tree: exp.Expression, column: exp.Expression) -> None:
    """`column` added to the SELECT list of the statement (of each SELECT of a set operation)."""
    if isinstance(tree, exp.SetOperation):
        _add_to_each_row(tree.this, column)
        _add_to_each_row(tree.expression, column)
    elif isinstance(tree, exp.Subquery):
        _add_to_each_row(tree.this, column)
    else:
        tree.select(column.copy(), copy=False)


def _inputs_first(tree: exp.Expression, inputs: dict[str, exp.Query], materialized: bool) -> exp.Expression:
    """The statement with a CTE per input, before its own (which read them)."""
    ctes = [exp.CTE(this=query.copy(), alias=exp.TableAlias(this=exp.to_identifier(name)),
                    materialized=materialized or None) for name, query in inputs.items()]
    outer = tree.args.get("with_")
    if outer is None:
        tree.set("with_", exp.With(expressions=ctes))
    else:
        outer.set("expressions", ctes + outer.expressions)
    return tree


def _as_written(tree: exp.Expression, caps: dialects.Capabilities) -> exp.Expression:
    """sqlmetrics' own SQL as it reads whatever the session has set (Capabilities): every sort key
    ASC, where a bare one could read as DESC; every cast to text in the character set named."""
    if caps.explicit_ascending:
        for ordered in tree.find_all(exp.Ordered):
            if not ordered.args.get("desc"):
                ordered.set("desc", False)  # written out as ASC
    if caps.text_charset:
        for cast in tree.find_all(exp.Cast):
            if cast.to.is_type(*exp.DataType.TEXT_TYPES):
                cast.set("to", exp.DataType(this=exp.DType.CHARACTER_SET, kind=exp.Var(this=caps.text_charset)))
    return tree


#: what NOT may apply to without parentheses, however tightly it binds: one operand
_ATOMS = (exp.Column, exp.Literal, exp.Boolean, exp.Null, exp.Paren, exp.Func, exp.Identifier)


def _not_parenthesized(tree: exp.Expression) -> exp.Expression:
    """Each NOT with its operand in parentheses, and in parentheses itself where it is an operand: the
    statement then reads alike whether NOT binds loosely (the standard) or tighter than comparisons
    (MySQL's HIGH_NOT_PRECEDENCE, which reads NOT a = b as (NOT a) = b)."""
    for node in list(tree.find_all(exp.Not)):
        if not isinstance(node.this, _ATOMS):
            node.set("this", exp.Paren(this=node.this))
        if isinstance(node.parent, (exp.Binary, exp.Unary, exp.Predicate)) and not isinstance(
                node.parent, (exp.Paren, exp.And, exp.Or)):
            node.replace(exp.Paren(this=node.copy()))
    return tree


def _nested_with_hoisted(tree: exp.Expression) -> exp.Expression:
    """The WITH of each CTE's own query moved to the top level, before that CTE, for an engine whose
    nested WITH cannot see the outer one's names (MariaDB). Only where every name stays unique (a
    hoisted CTE shadows none): the templates' names are."""
    outer = tree.args.get("with_")
    if outer is None:
        return tree

    def flattened(ctes):
        out = []
        for cte in ctes:
            inner = cte.this.args.get("with_")
            out.extend(flattened(inner.expressions) if inner is not None else [])
            out.append(cte)
        return out

    ctes = flattened(outer.expressions)
    if len({cte.alias for cte in ctes}) == len(ctes):
        for cte in ctes:
            cte.this.set("with_", None)
        outer.set("expressions", ctes)
    return tree


def _natives_in_place(tree: exp.Expression, target: Target) -> exp.Expression:
    """Replace each sm_native(dialect, text, placeholder, argument, ...) call (templates.py) by its
    text read in its dialect, with the arguments in the placeholders' place."""
    calls = [node for node in tree.find_all(exp.Anonymous) if node.name.lower() == NATIVE]
    for call in reversed(calls):  # innermost first: an argument may hold a native call of its own
        dialect, text, *pairs = call.expressions
        native = _native_tree(text.name, dialect.name).copy()
        arguments = {pairs[i].name: pairs[i + 1] for i in range(0, len(pairs), 2)}
        uses = placeholder_uses(text.name, dialect.name)
        for node in list(native.walk()):
            if isinstance(node, exp.Identifier) and node.name in arguments:
                if uses[node.name] == "name":
                    node.replace(target.identifier(arguments[node.name].name))
                else:
                    column = node.parent if isinstance(node.parent, exp.Column) else node
                    column.replace(arguments[node.name].copy())
            elif isinstance(node, exp.Literal) and node.is_string:
                value = node.name
                for name, use in uses.items():
                    if use == "text":
                        value = value.replace(name, arguments[name].name)
                if value != node.name:
                    node.replace(exp.Literal.string(value))
        call.replace(native)
    return tree


def _nulls_as_placed(tree: exp.Expression, dialect: str) -> exp.Expression:
    """Leave the NULLs of a framed window's ORDER BY where `dialect` puts them, where it cannot be
    told otherwise (BigQuery and MySQL: NULLS FIRST/LAST is refused, or its emulation by an extra
    key would change the frame). The templates sort NULLs last (DuckDB's order), but these keys
    are never NULL (checked inputs, ranks, counts: tests/test_golden.py NEVER_NULL checks each),
    so their placement cannot matter; the rest keep theirs, written out or emulated by sqlglot."""
    if Dialect.get_or_raise(dialect).generator_class.NULL_ORDERING_SUPPORTED:
        return tree
    ordering = Dialect.get_or_raise(dialect).NULL_ORDERING
    for ordered in tree.find_all(exp.Ordered):
        window = ordered.find_ancestor(exp.Window, exp.Select)
        if isinstance(window, exp.Window) and window.args.get("spec"):
            desc = bool(ordered.args.get("desc"))
            ordered.set("nulls_first", ordering == "nulls_are_small" and not desc
                        or ordering == "nulls_are_large" and desc)
    return tree


@functools.lru_cache(maxsize=1024)
def _native_tree(text: str, dialect: str) -> exp.Expression:
    return sqlglot.parse_one(text, read=dialect)


def transpile(sql: str, dialect: str) -> str:
    """A DuckDB-syntax SELECT of ours (the input checks) in `dialect`."""
    caps = dialects.of(dialect)
    if caps.template_syntax and not caps.explicit_ascending:
        return sql
    tree = _natives_in_place(_as_written(parse_select(sql, "duckdb", "a check query"), caps), Target(dialect))
    return (_not_parenthesized(tree) if caps.parenthesized_not else tree).sql(dialect=dialect)
