{{ sqlmetrics.multiclass_confusion_matrix(ref('classes'), label='true_class', prediction='predicted_class') }}
