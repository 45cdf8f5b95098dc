{{ sqlmetrics.report(ref('predictions'), label='clicked', score='pctr', group='user_id') }}
