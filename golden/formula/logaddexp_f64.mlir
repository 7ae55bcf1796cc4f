entry @logaddexp_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>, %arg2: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> tile<128xf64>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %10 = make_tensor_view %9, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %12, %13 = load_view_tko weak %11[%1] token = %8 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> tile<128xf64>, token
  %14 = maxf %7, %12 : tile<128xf64>
  %15 = constant <f64: 1.000000e+00> : tile<128xf64>
  %16 = subf %7, %12  : tile<128xf64>
  %17 = absf %16 : tile<128xf64>
  %18 = negf %17 : tile<128xf64>
  %19 = exp %18  : tile<128xf64>
  %20 = addf %15, %19  : tile<128xf64>
  %21 = log %20 : tile<128xf64>
  %22 = addf %14, %21  : tile<128xf64>
  %23 = assume div_by<16>, %arg2 : tile<ptr<f64>>
  %24 = make_tensor_view %23, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %25 = make_partition_view %24 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %26 = store_view_tko weak %22, %25[%1] token = %13 : tile<128xf64>, partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> token
  return
}
