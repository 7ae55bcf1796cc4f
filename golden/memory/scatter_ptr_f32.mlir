entry @scatter_ptr_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<i32>>, %arg2: tile<ptr<f32>>, %arg3: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %10 = make_tensor_view %9, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %12, %13 = load_view_tko weak %11[%1] token = %8 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %14 = exti %12 signed : tile<128xi32> -> tile<128xi64>
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
  %29 = constant <i1: true> : tile<128xi1>
  %30 = xori %28, %29 : tile<128xi1>
  %31 = ori %20, %30 : tile<128xi1>
  assert %31, "kernel `scatter_ptr_f32`: `store_ptr_tko`: a lane addresses memory outside argument 2 (Shared) (at memory.py:292)" : tile<128xi1>
  %32 = reshape %arg2 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %33 = broadcast %32 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %34 = offset %33, %12 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %35 = store_ptr_tko weak %34, %7, %28 token=%13 : tile<128xptr<f32>>, tile<128xf32>, tile<128xi1> -> token
  return
}
