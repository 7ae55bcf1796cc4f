entry @histogram_weighted_f64(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<f64>>, %arg2: tile<ptr<f64>>, %arg3: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %10 = make_tensor_view %9, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %12, %13 = load_view_tko weak %11[%1] token = %8 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> tile<128xf64>, token
  %14 = exti %7 signed : tile<128xi32> -> tile<128xi64>
  %15 = constant <i64: 0> : tile<128xi64>
  %16 = cmpi greater_than_or_equal %14, %15, signed : tile<128xi64> -> tile<128xi1>
  %17 = reshape %arg3 : tile<i64> -> tile<1xi64>
  %18 = broadcast %17 : tile<1xi64> -> tile<128xi64>
  %19 = cmpi less_than %14, %18, signed : tile<128xi64> -> tile<128xi1>
  %20 = andi %16, %19 : tile<128xi1>
  %21 = constant <i32: 128> : tile<i32>
  %22 = muli %1, %21 : tile<i32>
  %23 = reshape %22 : tile<i32> -> tile<1xi32>
  %24 = broadcast %23 : tile<1xi32> -> tile<128xi32>
  %25 = iota : tile<128xi32>
  %26 = addi %24, %25 : tile<128xi32>
  %27 = constant <i32: 1000> : tile<128xi32>
  %28 = cmpi less_than %26, %27, signed : tile<128xi32> -> tile<128xi1>
  %29 = constant <i32: 0> : tile<128xi32>
  %30 = cmpi greater_than_or_equal %7, %29, signed : tile<128xi32> -> tile<128xi1>
  %31 = andi %28, %30 : tile<128xi1>
  %32 = constant <i32: 32> : tile<128xi32>
  %33 = cmpi less_than %7, %32, signed : tile<128xi32> -> tile<128xi1>
  %34 = andi %31, %33 : tile<128xi1>
  %35 = constant <i1: true> : tile<128xi1>
  %36 = xori %34, %35 : tile<128xi1>
  %37 = ori %20, %36 : tile<128xi1>
  assert %37, "kernel `histogram_weighted_f64`: `atomic_rmw_tko`: a lane addresses memory outside argument 2 (Shared) (at atomics.py:220)" : tile<128xi1>
  %38 = reshape %arg2 : tile<ptr<f64>> -> tile<1xptr<f64>>
  %39 = broadcast %38 : tile<1xptr<f64>> -> tile<128xptr<f64>>
  %40 = offset %39, %7 : tile<128xptr<f64>>, tile<128xi32> -> tile<128xptr<f64>>
  %41, %42 = atomic_rmw_tko relaxed tl_blk %40, addf, %12, %34 token=%13 : tile<128xptr<f64>>, tile<128xf64>, tile<128xi1> -> tile<128xf64>, token
  return
}
