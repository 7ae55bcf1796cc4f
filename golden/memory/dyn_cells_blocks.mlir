entry @dyn_cells_blocks(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>, %arg2: tile<i32>, %arg3: tile<i32>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [%arg2], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<?xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = get_index_space_shape %6 : partition_view<tile=(128), padding_value = zero, tensor_view<?xi32, strides=[1]>> -> tile<i32>
  %10 = reshape %9 : tile<i32> -> tile<1xi32>
  %11 = broadcast %10 : tile<1xi32> -> tile<128xi32>
  %12 = muli %7, %11 : tile<128xi32>
  %13, %14, %15 = get_num_tile_blocks : tile<i32>
  %16 = constant <i32: 1000> : tile<i32>
  %17 = muli %13, %16 : tile<i32>
  %18 = reshape %17 : tile<i32> -> tile<1xi32>
  %19 = broadcast %18 : tile<1xi32> -> tile<128xi32>
  %20 = addi %12, %19 : tile<128xi32>
  %21 = reshape %1 : tile<i32> -> tile<1xi32>
  %22 = broadcast %21 : tile<1xi32> -> tile<128xi32>
  %23 = addi %20, %22 : tile<128xi32>
  %24 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %25 = make_tensor_view %24, shape = [%arg3], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %26 = make_partition_view %25 : partition_view<tile=(128), padding_value = zero, tensor_view<?xi32, strides=[1]>>
  %27 = store_view_tko weak %23, %26[%1] token = %8 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
  return
}
