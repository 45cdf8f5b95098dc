{{ sqlmetrics.concordance_index_ipcw(ref('customers'), duration='days', event='churned', score='risk', tau=90, by=['cohort']) }}
