{#- dbt-spark's own spark__load_csv_rows, except that an empty CSV cell is NULL: with method
    session, dbt-spark 1.11 binds Python's None as the text 'None' (its SessionConnectionWrapper
    ._fix_binding), which a text column keeps (classification_report's NULL class). -#}
{% macro spark__load_csv_rows(model, agate_table) %}
  {% set column_override = model['config'].get('column_types', {}) %}
  {% set statements = [] %}
  {% for chunk in agate_table.rows | batch(get_batch_size()) %}
      {% set bindings = [] %}
      {% for row in chunk %}
          {% do bindings.extend(row | reject('none')) %}
      {% endfor %}
      {% set sql %}
          insert into {{ this.render() }} values
          {% for row in chunk -%}
              ({%- for col_name in agate_table.column_names -%}
                  {%- set type = column_override.get(col_name, adapter.convert_type(agate_table, loop.index0)) -%}
                  cast({{ 'null' if row[loop.index0] is none else get_binding_char() }} as {{ type }})
                  {%- if not loop.last %},{% endif %}
              {%- endfor -%})
              {%- if not loop.last %},{% endif %}
          {%- endfor %}
      {% endset %}
      {% do adapter.add_query(sql, bindings=bindings, abridge_sql_log=True) %}
      {% if loop.index0 == 0 %}
          {% do statements.append(sql) %}
      {% endif %}
  {% endfor %}
  {{ return(statements[0]) }}
{% endmacro %}
