entry @atomic_umin_i64(%arg0: tile<ptr<i64>>, %arg1: tile<ptr<i64>>, %arg2: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi64, strides=[1]>>, tile<i32> -> tile<128xi64>, token
  %9 = trunci %7 : tile<128xi64> -> tile<128xi32>
  %10 = constant <i32: 16> : tile<128xi32>
  %11 = remi %9, %10 signed : tile<128xi32>
  %12 = addi %11, %10 : tile<128xi32>
  %13 = remi %12, %10 signed : tile<128xi32>
  %14 = exti %13 signed : tile<128xi32> -> tile<128xi64>
  %15 = constant <i64: 0> : tile<128xi64>
  %16 = cmpi greater_than_or_equal %14, %15, signed : tile<128xi64> -> tile<128xi1>
  %17 = reshape %arg2 : tile<i64> -> tile<1xi64>
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
  %29 = constant <i1: true> : tile<128xi1>
  %30 = xori %28, %29 : tile<128xi1>
  %31 = ori %20, %30 : tile<128xi1>
  assert %31, "kernel `atomic_umin_i64`: `atomic_rmw_tko`: a lane addresses memory outside argument 1 (Shared) (at atomics.py:78)" : tile<128xi1>
  %32 = reshape %arg1 : tile<ptr<i64>> -> tile<1xptr<i64>>
  %33 = broadcast %32 : tile<1xptr<i64>> -> tile<128xptr<i64>>
  %34 = offset %33, %13 : tile<128xptr<i64>>, tile<128xi32> -> tile<128xptr<i64>>
  %35, %36 = atomic_rmw_tko relaxed device %34, umin, %7, %28 token=%8 : tile<128xptr<i64>>, tile<128xi64>, tile<128xi1> -> tile<128xi64>, token
  return
}
