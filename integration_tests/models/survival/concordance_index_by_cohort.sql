{{ sqlmetrics.concordance_index(ref('customers'), duration='days', event='churned', score='risk', by=['cohort']) }}
