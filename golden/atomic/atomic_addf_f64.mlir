entry @atomic_addf_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>, %arg2: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> tile<128xf64>, token
  %9 = constant <f64: 1.600000e+01> : tile<128xf64>
  %10 = mulf %7, %9  : tile<128xf64>
  %11 = ftoi %10 signed  : tile<128xf64> -> tile<128xi32>
  %12 = constant <i32: 16> : tile<128xi32>
  %13 = remi %11, %12 signed : tile<128xi32>
  %14 = addi %13, %12 : tile<128xi32>
  %15 = remi %14, %12 signed : tile<128xi32>
  %16 = exti %15 signed : tile<128xi32> -> tile<128xi64>
  %17 = constant <i64: 0> : tile<128xi64>
  %18 = cmpi greater_than_or_equal %16, %17, signed : tile<128xi64> -> tile<128xi1>
  %19 = reshape %arg2 : tile<i64> -> tile<1xi64>
  %20 = broadcast %19 : tile<1xi64> -> tile<128xi64>
  %21 = cmpi less_than %16, %20, signed : tile<128xi64> -> tile<128xi1>
  %22 = andi %18, %21 : tile<128xi1>
  %23 = constant <i32: 128> : tile<i32>
  %24 = muli %1, %23 : tile<i32>
  %25 = reshape %24 : tile<i32> -> tile<1xi32>
  %26 = broadcast %25 : tile<1xi32> -> tile<128xi32>
  %27 = iota : tile<128xi32>
  %28 = addi %26, %27 : tile<128xi32>
  %29 = constant <i32: 1000> : tile<128xi32>
  %30 = cmpi less_than %28, %29, signed : tile<128xi32> -> tile<128xi1>
  %31 = constant <i1: true> : tile<128xi1>
  %32 = xori %30, %31 : tile<128xi1>
  %33 = ori %22, %32 : tile<128xi1>
  assert %33, "kernel `atomic_addf_f64`: `atomic_rmw_tko`: a lane addresses memory outside argument 1 (Shared) (at atomics.py:78)" : tile<128xi1>
  %34 = reshape %arg1 : tile<ptr<f64>> -> tile<1xptr<f64>>
  %35 = broadcast %34 : tile<1xptr<f64>> -> tile<128xptr<f64>>
  %36 = offset %35, %15 : tile<128xptr<f64>>, tile<128xi32> -> tile<128xptr<f64>>
  %37, %38 = atomic_rmw_tko acq_rel sys %36, addf, %7, %30 token=%8 : tile<128xptr<f64>>, tile<128xf64>, tile<128xi1> -> tile<128xf64>, token
  return
}
