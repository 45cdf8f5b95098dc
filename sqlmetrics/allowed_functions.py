"""The functions SQL text given by a user (a ``Query``, a ``--where``) may call: an allow-list.

A function is allowed when it is known to be pure and deterministic: it reads its arguments and
nothing else (no file, URL, setting, lock, sequence or clock beyond the statement's), leaves nothing
behind, and gives the same value for the same arguments, so the input checks and the metric, which
read a query one after the other, read the same rows. Everything else is refused (sqltext.require_allowed),
unless the caller names it as trusted (``Query(sql, functions=...)``, ``--allow-function``).

sqlglot reads a function it knows as a class of its own (``exp.Abs``) and one it does not as
``exp.Anonymous`` with its name. Both are reviewed here: the classes once for every dialect
(ALLOWED_CLASSES, REFUSED_CLASSES: together every ``exp.Func`` of the installed sqlglot,
tests/test_allowed_functions.py), the names per dialect (ALLOWED_NAMES). The reasons of REFUSED_CLASSES
and REFUSED_NAMES only word the message: what is not allowed is refused whether or not it has one.
"""
from __future__ import annotations

import re

from sqlglot import exp


def _classes(names: str) -> frozenset[type[exp.Func]]:
    """The classes of these names that the installed sqlglot has (a class is added in a later release
    of the supported series: 30.31 has StrtokSplitToTable, 30.22 not)."""
    return frozenset(getattr(exp, name) for name in names.split() if hasattr(exp, name))


# -- allowed: sqlglot's classes, whatever the dialect --------------------------------------------

ALLOWED_CLASSES = (
    # conditions and choices
    _classes("And Or Xor Case If Coalesce Nullif Nvl2 Greatest Least Exists EqualNull DecodeCase")
    # conversions between types
    | _classes("Cast TryCast CastToStrType Convert ToDouble ToNumber ToChar ToBoolean NumberToStr Typeof")
    # arithmetic and mathematical functions
    | _classes("Abs Acos Acosh Asin Asinh Atan Atan2 Atanh Cbrt Ceil Cos Cosh Cot Coth Csc Csch Degrees Exp "
               "Factorial Floor IsInf IsNan Ln Log Nanvl Negative Pi Pow Radians Rint Round Sec Sech Sign Sin Sinh "
               "Sqrt Tan Tanh Trunc SafeAdd SafeDivide SafeMultiply SafeNegate SafeSubtract WidthBucket "
               "BitwiseCount Getbit")
    # text
    | _classes("Ascii BitLength ByteLength Chr Collate Concat ConcatWs Contains Elt EndsWith Format Initcap Left "
               "Length Levenshtein JarowinklerSimilarity Lower Normalize Overlay Pad Repeat Replace Reverse Right "
               "Soundex Space Split SplitPart StartsWith StrPosition StringToArray Stuff Substring SubstringIndex "
               "Translate Trim Unicode Upper")
    # regular expressions
    | _classes("RegexpCount RegexpExtract RegexpExtractAll RegexpFullMatch RegexpILike RegexpInstr RegexpLike "
               "RegexpReplace RegexpSplit RegexpSubstr")
    # encodings and hashes (a hash of an id is the repeatable way to sample)
    | _classes("Hex LowerHex Unhex ToBase64 FromBase64 Encode Decode MD5 MD5Digest SHA SHA2 CityHash64 "
               "FarmFingerprint")
    # dates and times computed from their arguments
    | _classes("AddMonths Date DateAdd DateBin DateDiff DateFromParts DateStrToDate DateSub DateToDateStr DateTrunc "
               "Datetime DatetimeAdd DatetimeDiff DatetimeSub DatetimeTrunc Day DayOfMonth DayOfWeek DayOfWeekIso "
               "DayOfYear Dayname Extract Hour LastDay MakeInterval Minute Month Monthname MonthsBetween NextDay "
               "Quarter Second StrToDate StrToTime StrToUnix Time TimeAdd TimeDiff TimeStrToDate TimeStrToTime "
               "TimeStrToUnix TimeSub TimeToStr TimeToTimeStr TimeToUnix TimeTrunc Timestamp TimestampAdd "
               "TimestampDiff TimestampFromParts TimestampSub TimestampTrunc TsOrDsAdd TsOrDsDiff TsOrDsToDate "
               "TsOrDsToDateStr TsOrDsToDatetime TsOrDsToTime TsOrDsToTimestamp UnixDate UnixMicros UnixMillis "
               "UnixSeconds UnixToStr UnixToTime UnixToTimeStr Week WeekOfYear Year YearOfWeek YearOfWeekIso "
               "ConvertTimezone JustifyDays JustifyHours JustifyInterval")
    # the date and time a statement (PostgreSQL, DuckDB: a transaction, so a call) started: one value
    # for every row, as `day >= CURRENT_DATE - 7` needs (docs/safety.md: a few milliseconds apart
    # between the checks and the metric elsewhere)
    | _classes("CurrentDate CurrentTime CurrentTimestamp CurrentDatetime Localtime Localtimestamp UtcDate UtcTime "
               "UtcTimestamp")
    # aggregates (those that keep an order keep the rows' order, as a window over ties does)
    | _classes("Count CountIf Sum Avg Min Max Median Mode Quantile ApproxQuantile PercentileCont PercentileDisc "
               "Stddev StddevPop StddevSamp Variance VariancePop Corr CovarPop CovarSamp Kurtosis Skewness RegrAvgx "
               "RegrAvgy RegrCount RegrIntercept RegrR2 RegrSlope RegrSxx RegrSxy RegrSyy RegrValx RegrValy "
               "LogicalAnd LogicalOr BitwiseAndAgg BitwiseOrAgg BitwiseXorAgg ArgMax ArgMin ApproxDistinct AnyValue "
               "First Last ArrayAgg GroupConcat Grouping GroupingId")
    # window functions
    | _classes("RowNumber Rank DenseRank PercentRank CumeDist Ntile Lag Lead FirstValue LastValue NthValue")
    # arrays, maps, structs and JSON values
    | _classes("Array ArrayAll ArrayAny ArrayAppend ArrayCompact ArrayConcat ArrayContainedBy ArrayContains "
               "ArrayContainsAll ArrayDistinct ArrayExcept ArrayFilter ArrayFirst ArrayIntersect ArrayLast ArrayMax "
               "ArrayMin ArrayOverlaps ArrayPosition ArrayPrepend ArrayRemove ArrayReverse ArraySize ArraySlice "
               "ArraySort ArraySum ArrayToString ArraysZip List Map VarMap MapContainsKey MapKeys MapSize Struct "
               "StructExtract Transform Reduce Columns JSONExtract JSONExtractScalar JSONExtractArray JSONBExtract "
               "JSONBExtractScalar JSONBContains JSONArrayContains JSONFormat JSONKeys JSONObject JSONArray JSONType "
               "ParseJSON")
    # rows made from values (unnest, generate_series, DuckDB's range)
    | _classes("Unnest Explode _ExplodeOuter Posexplode PosexplodeOuter Inline GenerateSeries ExplodingGenerateSeries "
               "GenerateDateArray GenerateTimestampArray")
)

#: sqlglot's classes of functions it does not know, by name: decided by ALLOWED_NAMES
BY_NAME = _classes("Anonymous AnonymousAggFunc CombinedAggFunc ParameterizedAgg CombinedParameterizedAgg")

# -- allowed: names sqlglot reads as a function it does not know, per dialect ----------------------
# (a dialect built on another also has that one's, in dbt's order: dialects.Capabilities.prefixes)

ALLOWED_NAMES = {
    "duckdb": frozenset("""
        hash date_part datepart date_sub datesub isfinite isoyear century decade era millennium microsecond
        millisecond nanosecond epoch_us epoch_ns weekday yearweek julian to_hours to_minutes to_seconds to_months
        to_years to_weeks try_strptime now get_current_timestamp transaction_timestamp age
        even gcd lcm greatest_common_divisor least_common_multiple fmod nextafter signbit bit_count gamma lgamma
        divide round_even roundbankers
        strlen octet_length ord printf prefix suffix strip_accents nfc_normalize regexp_split_to_array
        regexp_escape damerau_levenshtein hamming jaccard jaro_similarity mismatches
        list_extract list_element array_extract element_at list_position list_indexof array_indexof array_has_any
        list_has_all list_slice list_cat list_unique array_unique list_intersect list_apply array_apply
        list_reduce array_reduce list_select list_where list_zip list_sort list_reverse_sort array_value
        list_sum list_avg list_count cardinality map_extract map_values map_entries map_concat struct_extract_at
        row json_valid json_value json_array_length json_contains json_exists
        mean fsum kahan_sum sumkahan favg product entropy mad sem kurtosis_pop arbitrary count_star histogram
        geomean geometric_mean weighted_avg wavg
    """.split()),
    "postgres": frozenset("""
        make_date age isfinite statement_timestamp transaction_timestamp date_subtract
        gcd lcm scale trim_scale min_scale num_nulls num_nonnulls
        octet_length regexp_match regexp_matches regexp_split_to_array quote_literal quote_ident
        cardinality array_upper array_lower array_ndims array_positions array_replace row every
        jsonb_extract_path_text jsonb_extract_path jsonb_typeof json_typeof jsonb_array_length json_array_length
        jsonb_path_query_first jsonb_path_exists
    """.split()),
    "mysql": frozenset("""
        now unix_timestamp weekday yearweek microsecond to_seconds from_days makedate period_diff period_add
        sec_to_time time_to_sec timediff adddate subdate addtime subtime time_format get_format
        crc32 field find_in_set strcmp conv oct bin octet_length mid inet_aton inet_ntoa
        json_unquote json_length json_contains
    """.split()),
    "sqlite": frozenset("datetime julianday unixepoch time date printf quote likely unlikely likelihood total "
                        "octet_length".split()),
    "spark": frozenset("now make_date weekday hash xxhash64 crc32 pmod bround conv log1p expm1 format_number isnull "
                       "isnotnull every range".split()),
    "clickhouse": frozenset("""
        now today yesterday toyear tomonth todayofmonth todayofweek todayofyear tohour tominute tosecond toquarter
        toisoweek toweek todate todate32 todatetime todatetime64 tostartofweek tostartofinterval toyyyymm
        toyyyymmdd tounixtimestamp parsedatetimebesteffort todateornull
        tofloat32 tofloat64 toint8 toint16 toint32 toint64 touint8 touint16 touint32 touint64 tostring todecimal64
        tofloat64ornull toint64ornull tofloat64orzero toint64orzero
        multiif intdiv intdivorzero modulo isfinite isnull isnotnull exp2 exp10 roundbankers
        positioncaseinsensitive lowerutf8 upperutf8 lengthutf8 empty notempty replaceall replaceone
        replaceregexpall replaceregexpone extract splitbychar arrayelement tupleelement arrayexists arrayall
        arraysort indexof siphash64 xxhash64 murmurhash3_64
        uniqexact uniqcombined quantileexact quantiletdigest countif avgif sumif minif maxif uniqif anylast
        grouparray groupuniqarray stddevpop stddevsamp varpop varsamp
    """.split()),
}

# -- files: DuckDB's readers, on a local file of a kind sqlmetrics reads -----------------------------

#: the files sqlmetrics reads, by their extension: a path given as data, and the path a query in
#: DuckDB reads with one of FILE_READERS or names in FROM ('preds.parquet')
FILE = re.compile(r"\.(?P<fmt>parquet|csv|tsv|json|jsonl|ndjson)(?:\.(?:gz|gzip|zst|zstd))?\Z", re.I)
READ_EXTENSIONS = ("Parquet (.parquet), CSV (.csv, .tsv) and JSON (.json, .jsonl, .ndjson) files, optionally "
                   "compressed (.gz, .zst)")
#: a URL: what DuckDB fetches (installing httpfs to do it), ClickHouse requests, Spark reads
URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
#: DuckDB's readers of those files: allowed on a path written as a string (or a list of them), each a
#: local file of a kind FILE matches, as `sqlmetrics.Query("SELECT * FROM read_csv('x.csv', ...)")`
#: reads one (sources.text_values_hint suggests it)
FILE_READER_CLASSES = _classes("ReadParquet ReadCSV")
FILE_READER_NAMES = {"duckdb": frozenset("read_json read_json_auto read_ndjson read_ndjson_auto read_csv_auto "
                                         "parquet_scan".split())}

# -- refused, and why ------------------------------------------------------------------------------
# (reason, what to do): the second half of the message "... calls f(), <reason>; <what to do>"

RUNS_TEXT = ("which runs SQL given as text, out of reach of sqlmetrics' checks", "write that SQL into the query itself")
EFFECT = ("whose effect outlives the query (a lock, a setting, a sequence, the log, profiling, a server's state)",
          "sqlmetrics runs only queries without side effects")
STALLS = ("which holds the connection for as long as it is told", "sqlmetrics runs only queries that compute")
READS = ("which reads a file or a URL, or calls a service outside the database",
         "load the data into a table first (or give a local Parquet, CSV or JSON file as data)")
VARIES = ("which gives a different value on each call",
          "sqlmetrics reads the query twice (input checks, then the metric): filter on a hash instead "
          "(e.g. hash(id) % 10 = 0) or store the result in a table first")
#: every function not allowed, not among those below
UNKNOWN = ("which is not among the functions sqlmetrics knows to be pure and deterministic",
           "compute it with another function")

REFUSED_CLASSES = (
    # a random value, a clock's or a sequence's: another on each call (a seeded random that repeats is
    # allowed where the dialect seeds it: SEEDED_RANDOM)
    dict.fromkeys(_classes("Rand Randn Randstr Uuid Uniform Normal Zipf Shuffle Systimestamp Seq1 Seq2 Seq4 Seq8"),
                  VARIES)
    # files, URLs, models and services outside the database (DuckDB's readers of a local file aside)
    | dict.fromkeys(_classes("ReadCSV ReadParquet ToFile AIAgg AIClassify AIEmbed AIForecast AIGenerate AISimilarity "
                             "AISummarizeAgg GenerateBool GenerateDouble GenerateEmbedding GenerateInt GenerateTable "
                             "GenerateText MLForecast MLTranslate Predict VectorSearch FeaturesAtTime"), READS)
    | {exp.NextValueFor: EFFECT, exp.Generator: STALLS}  # a sequence; Snowflake's rows for a time limit
    # not reviewed for every dialect that spells them (vendor functions, a session's or an account's
    # names, encryption, sketches, geometry): refused until they are, or named as trusted
    | dict.fromkeys(_classes("""
        Agg AggFunc Apply ApproxPercentileAccumulate ApproxPercentileCombine ApproxPercentileEstimate ApproxQuantiles
        ApproxTopK ApproxTopKAccumulate ApproxTopKCombine ApproxTopKEstimate ApproxTopSum ApproximateSimilarity
        ArrayConcatAgg ArrayConstructCompact ArrayInsert ArrayRemoveAt ArrayUnionAgg ArrayUniqueAgg
        Base64DecodeBinary Base64DecodeString Base64Encode BitmapBitPosition BitmapBucketNumber BitmapConstructAgg
        BitmapCount BitmapOrAgg Booland Boolnot Boolor BoolxorAgg CheckJson CheckXml CodePointsToBytes
        CodePointsToString Collation Compress ConnectByRoot ConvertToCharset CosineDistance CurrentAccount
        CurrentAccountName CurrentAvailableRoles CurrentCatalog CurrentClient CurrentDatabase CurrentIpAddress
        CurrentOrganizationName CurrentOrganizationUser CurrentRegion CurrentRole CurrentRoleType CurrentSchema
        CurrentSchemas CurrentSecondaryRoles CurrentSession CurrentStatement CurrentTimestampLTZ CurrentTimezone
        CurrentTransaction CurrentUser CurrentUserId CurrentVersion CurrentWarehouse DateFromUnixDate DateToDi
        DecompressBinary DecompressString Decrypt DecryptRaw DiToDate DotProduct DynamicIdentifier Encrypt
        EncryptRaw EuclideanDistance Flatten Float64 FromBase FromBase32 FromISO8601Date FromISO8601Timestamp
        FromISO8601TimestampNanos FromJson GapFill GetExtract GetIgnoreCase HashAgg HexDecodeString Hll Host Int64
        IsArray IsAscii IsNullValue JSONArrayAgg JSONArrayAppend JSONArrayInsert JSONBContainsAllTopKeys
        JSONBContainsAnyTopKeys JSONBContainsTopKey JSONBDeleteAtPath JSONBExists JSONBObjectAgg JSONBPathExists
        JSONBool JSONCast JSONExists JSONKeysAtDepth JSONObjectAgg JSONRemove JSONSet JSONStripNulls JSONTable
        JSONValueArray LaxBool LaxFloat64 LaxInt64 LaxString MD5NumberLower64 MD5NumberUpper64 ManhattanDistance
        MapCat MapDelete MapFromEntries MapInsert MapPick MatchAgainst Minhash MinhashCombine NetFunc ObjectAgg
        ObjectId ObjectInsert ObjectTransform OpenJSON ParseBignumeric ParseDatetime ParseIp ParseNumeric ParseTime
        ParseUrl PreviousDay RangeBucket RangeN RegDomain RtrimmedLength SHA1Digest SHA2Digest
        SafeConvertBytesToString SafeFunc Search SearchIp Secret SessionUser SoundexP123 SplitToTable StDistance
        StPoint Stack StandardHash StarMap StrToMap String StripNullValue Strtok StrtokSplitToTable StrtokToArray
        TimeFromParts TimeSlice TimestampLtzFromParts TimestampTzFromParts ToArray ToBase32 ToBinary ToCodePoints
        ToDays ToDecfloat ToMap ToVariant Try TryBase64DecodeBinary TryBase64DecodeString TryHexDecodeBinary
        TryHexDecodeString TryToDecfloat TsOrDiToDi WeekStart WeightString XMLElement XMLGet XMLTable
    """), UNKNOWN)
)

#: the dialects whose RAND(seed) repeats its values (MySQL's and MariaDB's RAND(42), Spark's rand(42));
#: ClickHouse's rand(x) takes no seed, PostgreSQL's random() and DuckDB's none
SEEDED_RANDOM = frozenset({"mysql", "spark"})

#: names refused with a reason known (of any dialect: a name means one thing wherever it is known)
REFUSED_NAMES = (
    dict.fromkeys("""
        query query_table json_execute_serialized_sql json_serialize_plan dblink dblink_send_query
        dblink_open dblink_fetch query_to_xml query_to_xml_and_xmlschema query_to_xmlschema cursor_to_xml
        cursor_to_xmlschema table_to_xml table_to_xml_and_xmlschema table_to_xmlschema schema_to_xml
        database_to_xml eval
    """.split(), RUNS_TEXT)
    | dict.fromkeys("""
        nextval setval lastval currval setseed set_config txid_current pg_current_xact_id
        checkpoint force_checkpoint enable_logging disable_logging truncate_duckdb_logs write_log
        enable_profiling disable_profiling enable_profile disable_profile enable_optimizer disable_optimizer
        enable_checkpoint_on_shutdown disable_checkpoint_on_shutdown enable_object_cache disable_object_cache
        enable_progress_bar disable_progress_bar enable_print_progress_bar disable_print_progress_bar
        enable_verification disable_verification verify_parallelism disable_verify_parallelism add_parquet_key
        add_grammar_extension remove_grammar_extension register_external_resource deregister_external_resource
        create_external_resource destroy_external_resource register_external_resource_type
        sqlite_attach load_extension
        pg_advisory_lock pg_advisory_lock_shared pg_try_advisory_lock pg_try_advisory_lock_shared
        pg_advisory_xact_lock pg_advisory_xact_lock_shared pg_try_advisory_xact_lock pg_try_advisory_xact_lock_shared
        pg_advisory_unlock pg_advisory_unlock_shared pg_advisory_unlock_all pg_notify pg_terminate_backend
        pg_cancel_backend pg_reload_conf pg_rotate_logfile pg_switch_wal pg_create_restore_point pg_promote
        pg_logical_emit_message pg_stat_reset pg_stat_reset_shared pg_stat_reset_single_table_counters
        pg_stat_reset_single_function_counters pg_stat_reset_slru pg_stat_reset_replication_slot
        pg_stat_reset_subscription_stats pg_stat_reset_backend_stats pg_stat_clear_snapshot
        pg_log_backend_memory_contexts pg_log_standby_snapshot pg_backup_start pg_backup_stop pg_start_backup
        pg_stop_backup pg_wal_replay_pause pg_wal_replay_resume pg_import_system_collations
        pg_replication_origin_create pg_replication_origin_drop pg_replication_origin_advance
        pg_replication_origin_session_setup pg_replication_origin_session_reset pg_replication_origin_xact_setup
        pg_replication_origin_xact_reset pg_create_physical_replication_slot pg_create_logical_replication_slot
        pg_drop_replication_slot pg_copy_physical_replication_slot pg_copy_logical_replication_slot
        pg_replication_slot_advance pg_logical_slot_get_changes pg_logical_slot_get_binary_changes
        lo_import lo_export lo_create lo_creat lo_unlink lo_from_bytea lo_put lo_truncate
        dblink_exec dblink_connect dblink_connect_u dblink_disconnect
        pg_file_write pg_file_rename pg_file_unlink pg_file_sync
        get_lock release_lock release_all_locks last_insert_id
        reflect java_method try_reflect executable
    """.split(), EFFECT)
    | dict.fromkeys("""
        pg_sleep pg_sleep_for pg_sleep_until sleep_ms sleep sleepeachrow benchmark master_pos_wait
        source_pos_wait master_gtid_wait wait_for_executed_gtid_set wait_until_sql_thread_after_gtids
    """.split(), STALLS)
    | dict.fromkeys("""
        read_text read_blob glob read_json_objects read_json_objects_auto read_ndjson_objects read_duckdb
        parquet_metadata parquet_schema parquet_file_metadata parquet_kv_metadata parquet_bloom_probe sniff_csv
        iceberg_scan delta_scan sqlite_scan postgres_scan postgres_query mysql_scan mysql_query
        pg_read_file pg_read_binary_file pg_ls_dir pg_stat_file pg_ls_logdir pg_ls_waldir pg_ls_tmpdir lo_get
        load_file url urlcluster s3 s3cluster gcs oss cosn azureblobstorage azureblobstoragecluster hdfs hdfscluster
        remote remotesecure cluster clusterallreplicas mysql postgresql mongodb redis sqlite jdbc odbc file
        filecluster input iceberg icebergs3 icebergazure iceberghdfs icebergLocal deltalake deltalakes3 hudi
        paimon bigquery ytsaurus prometheusquery prometheusqueryrange arrowstream python filesystem dictget
        dictgetordefault dictgetornull dicthas joinget joingetornull
    """.lower().split(), READS)
    | dict.fromkeys("""
        random rand randn uuid uuidv4 uuidv7 gen_random_uuid uuid_generate_v1 uuid_generate_v1mc uuid_generate_v4
        random_uuid newid sys_guid uuid_short rand_int rand32 rand64 randcanonical randuniform randnormal
        randconstant randbernoulli randbinomial randexponential randomstring randomfixedstring randomprintableascii
        randomstringutf8 generateuuidv4 generateuuidv7 generateserialid generatesnowflakeid generaterandom
        randomblob random_bytes gen_random_bytes random_normal sysdate clock_timestamp timeofday
        monotonically_increasing_id spark_partition_id arrayshuffle arraypartialshuffle arrayrandomsample
        nowinblock nowinblock64 rownumberinallblocks rownumberinblock blocknumber
    """.split(), VARIES)
)
