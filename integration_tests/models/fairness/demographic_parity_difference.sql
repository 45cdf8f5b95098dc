{{ sqlmetrics.demographic_parity_difference(ref('predictions'), label='clicked', score='pctr', sensitive=['country'], weight='weight') }}
