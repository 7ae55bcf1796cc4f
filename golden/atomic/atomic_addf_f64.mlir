entry @atomic_addf_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> tile<128xf64>, token
  %9 = reshape %arg1 : tile<ptr<f64>> -> tile<1xptr<f64>>
  %10 = broadcast %9 : tile<1xptr<f64>> -> tile<128xptr<f64>>
  %11 = constant <f64: 1.600000e+01> : tile<128xf64>
  %12 = mulf %7, %11  : tile<128xf64>
  %13 = ftoi %12 signed  : tile<128xf64> -> tile<128xi32>
  %14 = constant <i32: 16> : tile<128xi32>
  %15 = remi %13, %14 signed : tile<128xi32>
  %16 = addi %15, %14 : tile<128xi32>
  %17 = remi %16, %14 signed : tile<128xi32>
  %18 = offset %10, %17 : tile<128xptr<f64>>, tile<128xi32> -> tile<128xptr<f64>>
  %19 = constant <i32: 128> : tile<i32>
  %20 = muli %1, %19 : tile<i32>
  %21 = reshape %20 : tile<i32> -> tile<1xi32>
  %22 = broadcast %21 : tile<1xi32> -> tile<128xi32>
  %23 = iota : tile<128xi32>
  %24 = addi %22, %23 : tile<128xi32>
  %25 = constant <i32: 1000> : tile<128xi32>
  %26 = cmpi less_than %24, %25, signed : tile<128xi32> -> tile<128xi1>
  %27, %28 = atomic_rmw_tko acq_rel sys %18, addf, %7, %26 token=%8 : tile<128xptr<f64>>, tile<128xf64>, tile<128xi1> -> tile<128xf64>, token
  return
}
