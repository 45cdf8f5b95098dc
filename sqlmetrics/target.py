"""What SQL is generated for: the dialect, its layout, and what is known of the source's columns."""
from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect, NormalizationStrategy

from . import dialects
from .dialects import PLAIN_NAME

#: how a warehouse folds an unquoted name that a quoted one keeps: there the two differ
_FOLDING = (NormalizationStrategy.UPPERCASE, NormalizationStrategy.LOWERCASE)


@dataclass(frozen=True)
class Target:
    dialect: str = "duckdb"
    pretty: bool = False  # SQL laid out over lines, for people to read
    #: label/prediction columns the engine reports as boolean (the templates test them as such)
    booleans: frozenset[str] = frozenset()
    #: class columns the engine reports as text (the templates order them byte by byte, as numpy sorts them)
    texts: frozenset[str] = frozenset()
    #: pos_label as a SQL literal (DuckDB's syntax): the label value that is positive; None: labels are 0/1
    positive: str | None = None
    #: the names are the user's words for a warehouse no engine here reads (sm.render): resolved as
    #: that warehouse resolves them (identifier); otherwise they are exact names of the engine's columns
    warehouse_names: bool = False
    #: the columns of each relation given (by its placeholder), as checked: where a ranking metric's
    #: `by` column is, the run, the qrels or both (the templates' relation_columns). None: not checked
    relation_columns: tuple[tuple[str, tuple[str, ...]], ...] | None = None

    @property
    def capabilities(self) -> dialects.Capabilities:
        """What the Python layer knows of the dialect (sqlmetrics/dialects.py)."""
        return dialects.of(self.dialect)

    def identifier(self, name: str) -> exp.Identifier:
        """The quoted identifier of the column the user calls `name`. Exact, except for warehouse
        names: a plain name (letters, digits, _) is the column the warehouse finds for it unquoted
        (Snowflake folds it to upper case: clicked is CLICKED; on warehouses whose names are
        case-insensitive, quoted or not, it stays as written), and a name the user quoted in double
        quotes ('"clicked"') is the exact name between them."""
        if self.warehouse_names:
            if len(name) > 2 and name[0] == name[-1] == '"':
                return exp.to_identifier(name[1:-1], quoted=True)
            dialect = Dialect.get_or_raise(self.dialect)
            if PLAIN_NAME.match(name) and dialect.NORMALIZATION_STRATEGY in _FOLDING:
                name = dialect.normalize_identifier(exp.to_identifier(name, quoted=False)).name
        return exp.to_identifier(name, quoted=True)
