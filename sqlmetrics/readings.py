"""User SQL text (a sqlmetrics.Query, the command line's --where) as the caller's session reads it.

A session can set modes that change how a server *parses* text: MySQL's sql_mode (ANSI_QUOTES makes
"c" a column, PIPES_AS_CONCAT makes || a concatenation, NO_BACKSLASH_ESCAPES makes \\ a character,
HIGH_NOT_PRECEDENCE reads NOT a = b as (NOT a) = b, EMPTY_STRING_IS_NULL reads '' as NULL,
REAL_AS_FLOAT makes REAL a FLOAT), PostgreSQL's standard_conforming_strings (off: a backslash in
'...' escapes). A session's mode cannot be set for one statement, as the server parses a statement
before it runs: the user's text is read here as the session reads it (a sqlglot dialect of its
own per set of modes, ``reading``), and what sqlmetrics sends is written to read alike under any of
them (sqltext: NOT's operand parenthesized, strings in '...', names in `...` or "..." as the engine
always reads them). A mode nothing here reads as the server does refuses the text (``Unread``).
"""
from __future__ import annotations

import functools

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.dialects.postgres import Postgres
from sqlglot.dialects.mysql import MySQL
from sqlglot.tokens import TokenType

#: MySQL's sql_mode flags that change how text parses, each as a reading of the text: modelled here
MYSQL_READINGS = ("ANSI_QUOTES", "PIPES_AS_CONCAT", "NO_BACKSLASH_ESCAPES", "HIGH_NOT_PRECEDENCE",
                  "EMPTY_STRING_IS_NULL", "REAL_AS_FLOAT")
#: flags under which MariaDB parses with another grammar altogether (sql_yacc_ora.yy): not modelled
MYSQL_UNREAD = ("ORACLE",)


class Unread(Exception):
    """The session's mode reads text in a way no reading here models; the message says which."""


def mysql_reading(sql_mode: str) -> str:
    """The sqlglot dialect that reads text as a MySQL or MariaDB session of `sql_mode` (its
    @@SESSION.sql_mode, comma-separated flags) does. Raises Unread under a mode not modelled."""
    flags = {flag.strip().upper() for flag in (sql_mode or "").split(",") if flag.strip()}
    unread = sorted(flags & set(MYSQL_UNREAD))
    if unread:
        raise Unread(f"the session's sql_mode {unread[0]} reads SQL text with another grammar than MySQL's")
    return _mysql_dialect(tuple(flag for flag in MYSQL_READINGS if flag in flags))


@functools.lru_cache(maxsize=None)
def _mysql_dialect(flags: tuple[str, ...]) -> str:
    if not flags:
        return "mysql"
    quotes = ["'"] if "ANSI_QUOTES" in flags else MySQL.Tokenizer.QUOTES
    identifiers = ["`", '"'] if "ANSI_QUOTES" in flags else MySQL.Tokenizer.IDENTIFIERS
    escapes = [q for q in MySQL.Tokenizer.STRING_ESCAPES if q != "\\"] if "NO_BACKSLASH_ESCAPES" in flags else (
        MySQL.Tokenizer.STRING_ESCAPES)
    keywords = dict(MySQL.Tokenizer.KEYWORDS)
    if "REAL_AS_FLOAT" in flags:
        keywords["REAL"] = TokenType.FLOAT
    tokenizer = type("Tokenizer", (MySQL.Tokenizer,), {
        "QUOTES": quotes, "IDENTIFIERS": identifiers, "STRING_ESCAPES": escapes, "KEYWORDS": keywords})

    parser_attrs: dict = {}
    if "PIPES_AS_CONCAT" in flags:
        # || concatenates, binding tighter than ^ and looser than the unary operators (MySQL's order)
        parser_attrs["DISJUNCTION"] = {k: v for k, v in MySQL.Parser.DISJUNCTION.items() if k != TokenType.DPIPE}
        parser_attrs["_parse_exponent"] = _exponent_of_concatenations
    if "HIGH_NOT_PRECEDENCE" in flags:
        # NOT as tight as ! (a unary operator), not below the comparisons
        parser_attrs["UNARY_PARSERS"] = {**MySQL.Parser.UNARY_PARSERS, TokenType.NOT: lambda self: self.expression(
            exp.Paren(this=self.expression(exp.Not(this=self._parse_unary()))))}
    if "EMPTY_STRING_IS_NULL" in flags:
        parser_attrs["PRIMARY_PARSERS"] = {**MySQL.Parser.PRIMARY_PARSERS, TokenType.STRING: _empty_string_is_null(
            MySQL.Parser.PRIMARY_PARSERS[TokenType.STRING])}
    parser = type("Parser", (MySQL.Parser,), parser_attrs)
    name = "sm_mysql_" + "_".join(flag.lower() for flag in flags)
    # a sqlglot dialect registers under its class's name, lower-cased
    type(name, (MySQL,), {"Tokenizer": tokenizer, "Parser": parser,
                          "DPIPE_IS_STRING_CONCAT": "PIPES_AS_CONCAT" in flags})
    assert Dialect.get(name) is not None
    return name


def _exponent_of_concatenations(self):
    def concatenation():
        this = self._parse_unary()
        while self._match(TokenType.DPIPE):
            this = self.expression(exp.DPipe(this=this, expression=self._parse_unary()))
        return this

    this = concatenation()
    while self._match_set(self.EXPONENT):
        this = self.expression(self.EXPONENT[self._prev.token_type](this=this, expression=concatenation()))
    return this


def _empty_string_is_null(parse_string):
    def parse(self, token):
        return exp.Null() if token.text == "" else parse_string(self, token)
    return parse


def postgres_reading(standard_conforming_strings: str | None) -> str:
    """The sqlglot dialect that reads text as a PostgreSQL session does, by its
    standard_conforming_strings (as the server reports it to the driver; None: unknown, the default)."""
    return "sm_postgres_escaping_strings" if (standard_conforming_strings or "on").lower() == "off" else "postgres"


class SM_Postgres_Escaping_Strings(Postgres):  # noqa: N801 (sqlglot registers a dialect by its class's name)
    """PostgreSQL's reading with standard_conforming_strings off: a backslash in '...' escapes."""

    class Tokenizer(Postgres.Tokenizer):
        STRING_ESCAPES = ["'", "\\"]
