entry @atomic_max_i32(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>, %arg2: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = constant <i32: 16> : tile<128xi32>
  %10 = remi %7, %9 signed : tile<128xi32>
  %11 = addi %10, %9 : tile<128xi32>
  %12 = remi %11, %9 signed : tile<128xi32>
  %13 = exti %12 signed : tile<128xi32> -> tile<128xi64>
  %14 = constant <i64: 0> : tile<128xi64>
  %15 = cmpi greater_than_or_equal %13, %14, signed : tile<128xi64> -> tile<128xi1>
  %16 = reshape %arg2 : tile<i64> -> tile<1xi64>
  %17 = broadcast %16 : tile<1xi64> -> tile<128xi64>
  %18 = cmpi less_than %13, %17, signed : tile<128xi64> -> tile<128xi1>
  %19 = andi %15, %18 : tile<128xi1>
  %20 = constant <i32: 128> : tile<i32>
  %21 = muli %1, %20 : tile<i32>
  %22 = reshape %21 : tile<i32> -> tile<1xi32>
  %23 = broadcast %22 : tile<1xi32> -> tile<128xi32>
  %24 = iota : tile<128xi32>
  %25 = addi %23, %24 : tile<128xi32>
  %26 = constant <i32: 1000> : tile<128xi32>
  %27 = cmpi less_than %25, %26, signed : tile<128xi32> -> tile<128xi1>
  %28 = constant <i1: true> : tile<128xi1>
  %29 = xori %27, %28 : tile<128xi1>
  %30 = ori %19, %29 : tile<128xi1>
  assert %30, "kernel `atomic_max_i32`: `atomic_rmw_tko`: a lane addresses memory outside argument 1 (Shared) (at atomics.py:78)" : tile<128xi1>
  %31 = reshape %arg1 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %32 = broadcast %31 : tile<1xptr<i32>> -> tile<128xptr<i32>>
  %33 = offset %32, %12 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
  %34, %35 = atomic_rmw_tko relaxed sys %33, max, %7, %27 token=%8 : tile<128xptr<i32>>, tile<128xi32>, tile<128xi1> -> tile<128xi32>, token
  return
}
